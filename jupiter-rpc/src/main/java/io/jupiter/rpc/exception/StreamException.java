package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/**
 * A stream ended other than normally. {@link #status()} says why: {@code STREAM_CANCELLED}, {@code SLOW_CONSUMER},
 * {@code SHUTTING_DOWN}, {@code CLIENT_ERROR} (connection lost, or a provider that does not speak streams),
 * a refusal at the open ({@code SERVICE_NOT_FOUND}, {@code BAD_REQUEST}, ...) or the producer's failure
 * ({@code SERVICE_UNEXPECTED_ERROR}).
 */
public class StreamException extends RpcException {

    private static final long serialVersionUID = 1L;

    public StreamException(Status status, String message) {
        super(status, message);
    }

    public StreamException(Status status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
