package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/**
 * A stream ended other than normally. {@link #status()} says why: {@code STREAM_CANCELLED}, {@code SLOW_CONSUMER},
 * {@code SHUTTING_DOWN}, {@code CLIENT_ERROR} (connection lost, or a provider that does not speak streams),
 * a refusal at the open ({@code SERVICE_NOT_FOUND}, {@code BAD_REQUEST}, ...) or the producer's failure
 * ({@code SERVICE_UNEXPECTED_ERROR}).
 *
 * <p>A stream the provider ended with a status that a call can get too carries, as its {@link #getCause() cause},
 * the exception such a call gets: a stream refused at its open by a busy provider is a {@code StreamException} of
 * status {@code SERVER_BUSY} caused by a {@link ServerBusyException}; likewise {@link ServiceNotFoundException},
 * {@link BadRequestException} (unknown method, unauthorized caller), {@link FlowControlException},
 * {@link TimeoutException} and {@link ServerErrorException}. So a caller catches {@code StreamException} for every
 * stream failure, and tells a refusal apart with {@code getCause() instanceof ServerBusyException}, as it would
 * catch the exception itself around a call.
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
