package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/** No connection could carry the call, or the connection closed before the response arrived ({@code CLIENT_ERROR}). */
public class ConnectionException extends RpcException {

    private static final long serialVersionUID = 1L;

    public ConnectionException(Status status, String message) {
        super(status, message);
    }

    public ConnectionException(Status status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
