package io.jupiter.rpc.exception;

import io.jupiter.transport.Status;

/**
 * A request or response body is larger than the transport's body cap ({@code TransportConfig.maxBodySize}, 5 MiB by
 * default), so it was not sent: {@code CLIENT_ERROR} for a request (refused by the consumer before writing it, the
 * call did not run), {@code SERVER_ERROR} for a response (the method ran; its result was too large to send).
 */
public class PayloadTooLargeException extends RpcException {

    private static final long serialVersionUID = 1L;

    public PayloadTooLargeException(Status status, String message) {
        super(status, message);
    }

    @Override
    public boolean isSafeToRetry() {
        // Retrying sends the same body: it would be refused again.
        return false;
    }
}
