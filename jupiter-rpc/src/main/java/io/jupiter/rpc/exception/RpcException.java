package io.jupiter.rpc.exception;

import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.Status;

/**
 * A call failed. {@link #status()} says why, with the same codes that travel on the wire; the message says what
 * happened in words. Subclasses exist per kind of failure so that callers can catch what they can handle.
 */
public class RpcException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Status status;

    public RpcException(Status status, String message) {
        this(status, message, null);
    }

    public RpcException(Status status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** Why the call failed. */
    public Status status() {
        return status;
    }

    /** Whether the request surely did not run on the provider, so another attempt cannot run it twice. */
    public boolean isSafeToRetry() {
        return StatusTable.provesNotProcessed(status);
    }

    @Override
    public String toString() {
        return getClass().getName() + "[" + status + "]: " + getMessage();
    }
}
