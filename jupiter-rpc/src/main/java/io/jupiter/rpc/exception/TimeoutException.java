package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/**
 * The call got no response in time ({@code CLIENT_TIMEOUT} before the request was written, {@code SERVER_TIMEOUT}
 * after).
 */
public class TimeoutException extends RpcException {

    private static final long serialVersionUID = 1L;

    public TimeoutException(Status status, String message) {
        super(status, message);
    }

    public TimeoutException(Status status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
