package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/** The provider failed outside the business method, e.g. the result could not be serialized ({@code SERVER_ERROR}). */
public class ServerErrorException extends RpcException {

    private static final long serialVersionUID = 1L;

    public ServerErrorException(Status status, String message) {
        super(status, message);
    }

    public ServerErrorException(Status status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
