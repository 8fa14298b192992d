package io.jupiter.rpc.internal;

import io.jupiter.rpc.exception.RpcException;
import io.jupiter.serialization.wire.legacy.JupiterRemoteException;
import io.jupiter.transport.Status;

/**
 * The 1.3.1 column of the {@link StatusTable}, by its older names: what a provider sends for a refusal, and what a
 * consumer makes of it.
 */
public final class LegacyExceptions {

    private LegacyExceptions() {
    }

    /** {@link StatusTable#legacyBody}. */
    public static JupiterRemoteException body(Status status, String message) {
        return StatusTable.legacyBody(status, message);
    }

    /** {@link StatusTable#exception}. */
    public static RpcException byStatus(Status status, String message, Throwable cause) {
        return StatusTable.exception(status, message, cause);
    }

    /** {@link StatusTable#fromLegacyBody}. */
    public static RpcException toRpcException(Status status, Throwable remote, String where) {
        return StatusTable.fromLegacyBody(status, remote, where);
    }
}
