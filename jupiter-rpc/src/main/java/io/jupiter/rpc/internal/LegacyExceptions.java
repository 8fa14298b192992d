package io.jupiter.rpc.internal;

import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.FlowControlException;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.ServerErrorException;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.legacy.JupiterBadRequestException;
import io.jupiter.serialization.wire.legacy.JupiterBizException;
import io.jupiter.serialization.wire.legacy.JupiterFlowControlException;
import io.jupiter.serialization.wire.legacy.JupiterRemoteException;
import io.jupiter.serialization.wire.legacy.JupiterServerBusyException;
import io.jupiter.serialization.wire.legacy.JupiterServiceNotFoundException;
import io.jupiter.transport.Status;
import java.util.List;
import java.util.function.Function;

/**
 * The one table of failures outside a service method: for each, its statuses, the exception a consumer of ours
 * throws, and the exception class of Jupiter 1.3.1 that travels in the error body. Both directions read it.
 *
 * <p>A provider answers 0x40, 0x44, 0x51 and flow control with 1.3.1's own exception classes (their wire forms in
 * {@code io.jupiter.serialization.wire.legacy}, written under the {@code org.jupiter.rpc.exception} names), so a
 * 1.3.1 consumer rethrows its own {@code JupiterBadRequestException} etc. with our message. A consumer turns those
 * classes, from either a 1.3.1 provider or ours, into our exception of the same meaning, message kept; a status
 * with no such body (or another body) maps to the same exception by status.
 */
public enum LegacyExceptions {

    BAD_REQUEST(List.of(Status.BAD_REQUEST), JupiterBadRequestException.class, JupiterBadRequestException::new,
            BadRequestException::new),
    SERVICE_NOT_FOUND(List.of(Status.SERVICE_NOT_FOUND), JupiterServiceNotFoundException.class,
            JupiterServiceNotFoundException::new, ServiceNotFoundException::new),
    SERVER_BUSY(List.of(Status.SERVER_BUSY), JupiterServerBusyException.class, JupiterServerBusyException::new,
            ServerBusyException::new),
    FLOW_CONTROL(List.of(Status.APP_FLOW_CONTROL, Status.PROVIDER_FLOW_CONTROL), JupiterFlowControlException.class,
            JupiterFlowControlException::new, FlowControlException::new),
    /** 1.3.1 has no class of its own for these: the body is its base class. */
    SERVER_ERROR(List.of(Status.SERVER_ERROR), null, JupiterRemoteException::new, ServerErrorException::new),
    TIMEOUT(List.of(Status.CLIENT_TIMEOUT, Status.SERVER_TIMEOUT), null, JupiterRemoteException::new,
            TimeoutException::new);

    /** Builds our exception from the status, the text and the cause. */
    @FunctionalInterface
    private interface Ours {
        RpcException create(Status status, String message, Throwable cause);
    }

    private static final LegacyExceptions[] BY_STATUS = new LegacyExceptions[256];

    static {
        for (LegacyExceptions row : values()) {
            for (Status status : row.statuses) {
                BY_STATUS[status.value() & 0xff] = row;
            }
        }
    }

    private final List<Status> statuses;
    private final Class<? extends JupiterRemoteException> legacyClass;
    private final Function<String, JupiterRemoteException> legacy;
    private final Ours ours;

    LegacyExceptions(List<Status> statuses, Class<? extends JupiterRemoteException> legacyClass,
                     Function<String, JupiterRemoteException> legacy, Ours ours) {
        this.statuses = statuses;
        this.legacyClass = legacyClass;
        this.legacy = legacy;
        this.ours = ours;
    }

    /** The error body for a failure with {@code status}: 1.3.1's exception class for it, or its base class. */
    public static JupiterRemoteException body(Status status, String message) {
        LegacyExceptions row = BY_STATUS[status.value() & 0xff];
        return row == null ? new JupiterRemoteException(message) : row.legacy.apply(message);
    }

    /**
     * Our exception for a failure with {@code status} outside the method, or {@code null} if the status is not one
     * of this table's (OK, the method's own failures, and statuses only a consumer raises).
     */
    public static RpcException byStatus(Status status, String message, Throwable cause) {
        LegacyExceptions row = BY_STATUS[status.value() & 0xff];
        return row == null ? null : row.ours.create(status, message, cause);
    }

    /**
     * Our exception for a 1.3.1 exception class read from an error body, chosen by the class (which says more than
     * the status), or {@code null} if {@code remote} is not one. The 1.3.1 class name and message are kept in the
     * message; the wire object is not attached as a cause, since callers never see wire classes.
     */
    public static RpcException toRpcException(Status status, Throwable remote, String where) {
        if (!(remote instanceof JupiterRemoteException)) {
            return null;
        }
        String legacyName = LegacyClassNames.legacyName(remote.getClass().getName());
        String message = remote.getMessage();
        if (remote instanceof JupiterBizException) {
            return new RemoteServiceException(status, legacyName, message, null);
        }
        String text = where + legacyName + (message == null ? "" : ": " + message);
        for (LegacyExceptions row : values()) {
            if (row.legacyClass != null && row.legacyClass.isInstance(remote)) {
                return row.ours.create(status, text, null);
            }
        }
        return null;
    }
}
