package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.StatusTable;


/**
 * How an attempt of a hedged call ends when another attempt answered first: it stops waiting (its response, if one
 * comes, is dropped) and frees its slot. Never reaches the caller: the call ends with the winning attempt.
 */
final class AttemptCancelled extends RpcException {

    private static final long serialVersionUID = 1L;

    AttemptCancelled(String message) {
        super(StatusTable.CLIENT_ERROR.status(), message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
