package io.jupiter.rpc.exception;

import io.jupiter.rpc.internal.StatusTable;


/**
 * The request never left this process (no connection, or the write failed), so the provider surely did not run it:
 * always {@linkplain #isSafeToRetry() safe to retry}.
 */
public class RequestNotSentException extends ConnectionException {

    private static final long serialVersionUID = 1L;

    public RequestNotSentException(String message, Throwable cause) {
        super(StatusTable.CLIENT_ERROR.status(), message, cause);
    }

    @Override
    public boolean isSafeToRetry() {
        return true;
    }
}
