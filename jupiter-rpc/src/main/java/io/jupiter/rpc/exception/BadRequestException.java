package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/** The provider could not read the request ({@code BAD_REQUEST}), e.g. a serializer it does not accept. */
public class BadRequestException extends RpcException {

    private static final long serialVersionUID = 1L;

    public BadRequestException(Status status, String message) {
        super(status, message);
    }

    public BadRequestException(Status status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
