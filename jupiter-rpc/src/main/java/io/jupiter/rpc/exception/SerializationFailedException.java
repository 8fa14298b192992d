package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/** The request could not be written or the response could not be read ({@code DESERIALIZATION_FAIL} when reading). */
public class SerializationFailedException extends RpcException {

    private static final long serialVersionUID = 1L;

    public SerializationFailedException(Status status, String message) {
        super(status, message);
    }

    public SerializationFailedException(Status status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
