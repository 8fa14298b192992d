package io.jupiter.rpc.internal;

import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.FlowControlException;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.legacy.JupiterBadRequestException;
import io.jupiter.serialization.wire.legacy.JupiterBizException;
import io.jupiter.serialization.wire.legacy.JupiterFlowControlException;
import io.jupiter.serialization.wire.legacy.JupiterRemoteException;
import io.jupiter.serialization.wire.legacy.JupiterServerBusyException;
import io.jupiter.serialization.wire.legacy.JupiterServiceNotFoundException;
import io.jupiter.transport.Status;

/**
 * Maps between our exceptions and the error bodies Jupiter 1.3.1 sends and expects for infrastructure failures.
 *
 * <p>A provider answers 0x40, 0x44 and 0x51 with 1.3.1's own exception classes (their wire forms in
 * {@code io.jupiter.serialization.wire.legacy}, written under the {@code org.jupiter.rpc.exception} names), so a
 * 1.3.1 consumer rethrows its own {@code JupiterBadRequestException} etc. with our message. A consumer turns those
 * classes, from either a 1.3.1 provider or ours, into our {@link RpcException} of the same meaning, message kept.
 */
public final class LegacyExceptions {

    private LegacyExceptions() {
    }

    /** The error body for an infrastructure failure with {@code status}: 1.3.1's exception class for it. */
    public static JupiterRemoteException body(Status status, String message) {
        switch (status) {
            case BAD_REQUEST:
                return new JupiterBadRequestException(message);
            case SERVICE_NOT_FOUND:
                return new JupiterServiceNotFoundException(message);
            case SERVER_BUSY:
                return new JupiterServerBusyException(message);
            case APP_FLOW_CONTROL:
            case PROVIDER_FLOW_CONTROL:
                return new JupiterFlowControlException(message);
            default:
                return new JupiterRemoteException(message);
        }
    }

    /**
     * Our exception for a 1.3.1 exception class read from an error body, chosen by the class (which says more than
     * the status), or null if {@code remote} is not one. The 1.3.1 class name and message are kept in the message;
     * the wire object is not attached as a cause, since callers never see wire classes.
     */
    public static RpcException toRpcException(Status status, Throwable remote, String where) {
        if (!(remote instanceof JupiterRemoteException)) {
            return null;
        }
        String legacyName = LegacyClassNames.legacyName(remote.getClass().getName());
        String message = remote.getMessage();
        String text = where + legacyName + (message == null ? "" : ": " + message);
        if (remote instanceof JupiterBadRequestException) {
            return new BadRequestException(status, text);
        }
        if (remote instanceof JupiterServiceNotFoundException) {
            return new ServiceNotFoundException(status, text);
        }
        if (remote instanceof JupiterServerBusyException) {
            return new ServerBusyException(status, text);
        }
        if (remote instanceof JupiterFlowControlException) {
            return new FlowControlException(status, text);
        }
        if (remote instanceof JupiterBizException) {
            return new RemoteServiceException(status, legacyName, message, null);
        }
        return null;
    }
}
