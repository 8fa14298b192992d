package io.jupiter.rpc.internal;

import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.FlowControlException;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.ServerErrorException;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.legacy.JupiterBadRequestException;
import io.jupiter.serialization.wire.legacy.JupiterBizException;
import io.jupiter.serialization.wire.legacy.JupiterFlowControlException;
import io.jupiter.serialization.wire.legacy.JupiterRemoteException;
import io.jupiter.serialization.wire.legacy.JupiterServerBusyException;
import io.jupiter.serialization.wire.legacy.JupiterServiceNotFoundException;
import io.jupiter.transport.Status;
import java.util.function.Function;

/**
 * The error model: what each status means to the RPC layer, read in both directions. One row per wire status
 * ({@link Status} holds only the bytes): whether it proves the method did not run (safe to retry elsewhere), whether
 * only a consumer raises it, the exception a consumer of ours throws for it, and the exception class of Jupiter 1.3.1
 * that travels in its error body.
 *
 * <pre>
 * status                    byte  not run  local  our exception             1.3.1 class in the body
 * OK                        0x20                   -                         -
 * CLIENT_ERROR              0x30           yes    RpcException              -
 * CLIENT_TIMEOUT            0x31  yes      yes    TimeoutException          JupiterRemoteException
 * SERVER_TIMEOUT            0x32           yes    TimeoutException          JupiterRemoteException
 * BAD_REQUEST               0x40  yes             BadRequestException       JupiterBadRequestException
 * SERVICE_NOT_FOUND         0x44  yes             ServiceNotFoundException  JupiterServiceNotFoundException
 * SERVER_ERROR              0x50                  ServerErrorException      JupiterRemoteException
 * SERVER_BUSY               0x51  yes             ServerBusyException       JupiterServerBusyException
 * SERVICE_EXPECTED_ERROR    0x52                  the method's own, or RemoteServiceException
 * SERVICE_UNEXPECTED_ERROR  0x53                  RemoteServiceException    (the method's exception)
 * APP_FLOW_CONTROL          0x54  yes             FlowControlException      JupiterFlowControlException
 * PROVIDER_FLOW_CONTROL     0x55  yes             FlowControlException      JupiterFlowControlException
 * DESERIALIZATION_FAIL      0x60           yes    (raised by the reader: SerializationFailedException)
 * STREAM_CANCELLED          0x70                  StreamException           - (streams only, never to 1.3.1)
 * SLOW_CONSUMER             0x71                  StreamException           - (streams only)
 * SHUTTING_DOWN             0x72                  StreamException           - (streams only)
 * UNKNOWN                   any other byte        RpcException              -
 * </pre>
 *
 * <p>Status to exception: {@link #exception} (by status), {@link #streamEnd} (a stream's end: a
 * {@link StreamException} whose cause is {@link #exception}'s), {@link #fromLegacyBody} (by the 1.3.1 class of an error
 * body, which says more than the status); the consumer's one place that uses them is its response reader. Exception
 * to status: {@link #fromThrowable}, an {@link RpcException}'s own status, else the default of where it was thrown;
 * the provider's one place that uses it is {@code ProviderFailures}. What a provider sends for a refusal is
 * {@link #legacyBody}, so a 1.3.1 consumer rethrows its own class with our message.
 */
public enum StatusTable {

    OK(Status.OK, false, null, null, null),
    CLIENT_ERROR(Status.CLIENT_ERROR, false, null, null, null),
    CLIENT_TIMEOUT(Status.CLIENT_TIMEOUT, true, null, JupiterRemoteException::new, TimeoutException::new),
    SERVER_TIMEOUT(Status.SERVER_TIMEOUT, false, null, JupiterRemoteException::new, TimeoutException::new),
    BAD_REQUEST(Status.BAD_REQUEST, true, JupiterBadRequestException.class, JupiterBadRequestException::new,
            BadRequestException::new),
    SERVICE_NOT_FOUND(Status.SERVICE_NOT_FOUND, true, JupiterServiceNotFoundException.class,
            JupiterServiceNotFoundException::new, ServiceNotFoundException::new),
    /** 1.3.1 has no class of its own for this: the body is its base class. */
    SERVER_ERROR(Status.SERVER_ERROR, false, null, JupiterRemoteException::new, ServerErrorException::new),
    SERVER_BUSY(Status.SERVER_BUSY, true, JupiterServerBusyException.class, JupiterServerBusyException::new,
            ServerBusyException::new),
    /** The method's own failures: the body is the method's exception, read by the consumer as such. */
    SERVICE_EXPECTED_ERROR(Status.SERVICE_EXPECTED_ERROR, false, null, null, null),
    SERVICE_UNEXPECTED_ERROR(Status.SERVICE_UNEXPECTED_ERROR, false, null, null, null),
    APP_FLOW_CONTROL(Status.APP_FLOW_CONTROL, true, JupiterFlowControlException.class,
            JupiterFlowControlException::new, FlowControlException::new),
    PROVIDER_FLOW_CONTROL(Status.PROVIDER_FLOW_CONTROL, true, JupiterFlowControlException.class,
            JupiterFlowControlException::new, FlowControlException::new),
    DESERIALIZATION_FAIL(Status.DESERIALIZATION_FAIL, false, null, null, null),
    /** The stream statuses end a stream ({@code STREAM_END}, never a response), so no 1.3.1 peer ever reads them. */
    STREAM_CANCELLED(Status.STREAM_CANCELLED, false, null, null, StreamException::new),
    SLOW_CONSUMER(Status.SLOW_CONSUMER, false, null, null, StreamException::new),
    SHUTTING_DOWN(Status.SHUTTING_DOWN, false, null, null, StreamException::new),
    UNKNOWN(Status.UNKNOWN, false, null, null, null);

    /** Builds our exception from the status, the text and the cause. */
    @FunctionalInterface
    private interface Ours {
        RpcException create(Status status, String message, Throwable cause);
    }

    private static final StatusTable[] BY_STATUS = new StatusTable[Status.values().length];

    static {
        for (StatusTable row : values()) {
            BY_STATUS[row.status.ordinal()] = row;
        }
        for (Status status : Status.values()) {
            if (BY_STATUS[status.ordinal()] == null) {
                throw new ExceptionInInitializerError("no row for status " + status);
            }
        }
    }

    private final Status status;
    private final boolean provesNotProcessed;
    /** The 1.3.1 class that names this status in an error body ({@code null}: none of its own). */
    private final Class<? extends JupiterRemoteException> legacyClass;
    /** The error body a provider sends for a refusal with this status; {@code null}: 1.3.1's base class. */
    private final Function<String, JupiterRemoteException> legacyBody;
    /** Our exception for this status; {@code null}: none of its own (the method's failures, local statuses). */
    private final Ours ours;

    StatusTable(Status status, boolean provesNotProcessed, Class<? extends JupiterRemoteException> legacyClass,
                Function<String, JupiterRemoteException> legacyBody, Ours ours) {
        this.status = status;
        this.provesNotProcessed = provesNotProcessed;
        this.legacyClass = legacyClass;
        this.legacyBody = legacyBody;
        this.ours = ours;
    }

    /**
     * The wire status of this row. Code outside this table names a status through its row
     * ({@code StatusTable.CLIENT_ERROR.status()}), so that every status a component raises or tests for can be found
     * here; {@code StatusLiteralsTest} fails on a {@code Status} constant named elsewhere.
     */
    public Status status() {
        return status;
    }

    /** Whether {@code status} is this row's. */
    public boolean is(Status status) {
        return this.status == status;
    }

    /**
     * A provider's refusal of a request it did not run: it could not read it, does not serve it, or is full (busy,
     * flow control). Counted as a rejection by the metrics.
     */
    public static boolean isRefusal(Status status) {
        return status == Status.BAD_REQUEST || status == Status.SERVICE_NOT_FOUND || isFull(status);
    }

    /** A provider's refusal of a call it did not run because it is full (busy, flow control). */
    public static boolean isFull(Status status) {
        return status == Status.SERVER_BUSY || status == Status.APP_FLOW_CONTROL
                || status == Status.PROVIDER_FLOW_CONTROL;
    }

    /** An exception the method does not declare, or a failure of the provider around the method. */
    public static boolean isServerError(Status status) {
        return status == Status.SERVICE_UNEXPECTED_ERROR || status == Status.SERVER_ERROR;
    }

    /** The method's own failure, declared or not: the error body holds its exception. */
    public static boolean isMethodFailure(Status status) {
        return status == Status.SERVICE_EXPECTED_ERROR || status == Status.SERVICE_UNEXPECTED_ERROR;
    }

    /** The provider answered: the method threw, or the provider failed around it. */
    public static boolean isAnswer(Status status) {
        return isMethodFailure(status) || status == Status.SERVER_ERROR;
    }

    /**
     * A failure on the consumer's side that says nothing of the provider: the request could not be written, or its
     * timeout passed before it was.
     */
    public static boolean isConsumerSide(Status status) {
        return status == Status.CLIENT_ERROR || status == Status.CLIENT_TIMEOUT;
    }

    /**
     * The status of a call's outcome for interceptors and spans: an {@link RpcException}'s own; any other throwable
     * is the method's failure.
     */
    public static Status ofOutcome(Throwable error) {
        return fromThrowable(error, Status.SERVICE_EXPECTED_ERROR);
    }

    /** The row of {@code status}. */
    public static StatusTable of(Status status) {
        return BY_STATUS[status.ordinal()];
    }

    /**
     * Whether {@code status} proves the business method did not run, so the call may be retried elsewhere without
     * risk of running twice.
     */
    public static boolean provesNotProcessed(Status status) {
        return of(status).provesNotProcessed;
    }

    /**
     * Exception to status, the one rule: an {@link RpcException} carries its own; any other throwable gets
     * {@code otherwise}, the default of the place it was thrown (which the caller names).
     */
    public static Status fromThrowable(Throwable error, Status otherwise) {
        return error instanceof RpcException rpc ? rpc.status() : otherwise;
    }

    /** The error body for a refusal with {@code status}: 1.3.1's exception class for it, or its base class. */
    public static JupiterRemoteException legacyBody(Status status, String message) {
        Function<String, JupiterRemoteException> body = of(status).legacyBody;
        return body == null ? new JupiterRemoteException(message) : body.apply(message);
    }

    /**
     * Status to exception: ours for {@code status}, or {@code null} if the status has none of its own (OK, the
     * method's own failures, and statuses only a consumer raises).
     */
    public static RpcException exception(Status status, String message, Throwable cause) {
        Ours factory = of(status).ours;
        return factory == null ? null : factory.create(status, message, cause);
    }

    /** {@link #exception}, or a plain {@link RpcException} naming the status byte when it has none of its own. */
    public static RpcException exceptionOrGeneric(Status status, String where, String detail, Throwable cause) {
        RpcException known = exception(status, where + detail, cause);
        return known != null ? known : new RpcException(status, where + "status 0x"
                + Integer.toHexString(status.value() & 0xff) + ": " + detail, cause);
    }

    /**
     * A stream's end with {@code status} (not {@code OK}), as its reader gets it: always a {@link StreamException},
     * so that a stream's failures are one type, whose cause is the exception a call ending with the same status gets
     * when the status has one of its own that is not a stream's ({@link ServerBusyException} for a busy provider,
     * {@link ServiceNotFoundException}, {@link BadRequestException} for an unknown method or an unauthorized caller,
     * {@link FlowControlException}, {@link TimeoutException}, {@link ServerErrorException}); {@code isSafeToRetry()}
     * answers as for the call.
     */
    public static StreamException streamEnd(Status status, String message) {
        Ours factory = of(status).ours;
        RpcException asCall = factory == null ? null : factory.create(status, message, null);
        if (asCall instanceof StreamException) {
            asCall = null; // the stream statuses: the end is all there is to say
        }
        return new StreamException(status, message, asCall);
    }

    /**
     * Our exception for a 1.3.1 exception class read from an error body, chosen by the class (which says more than
     * the status), or {@code null} if {@code remote} is not one. The 1.3.1 class name and message are kept in the
     * message; the wire object is not attached as a cause, since callers never see wire classes.
     */
    public static RpcException fromLegacyBody(Status status, Throwable remote, String where) {
        if (!(remote instanceof JupiterRemoteException)) {
            return null;
        }
        String legacyName = LegacyClassNames.legacyName(remote.getClass().getName());
        String message = remote.getMessage();
        if (remote instanceof JupiterBizException) {
            return new RemoteServiceException(status, legacyName, message, null);
        }
        String text = where + legacyName + (message == null ? "" : ": " + message);
        for (StatusTable row : values()) {
            if (row.legacyClass != null && row.legacyClass.isInstance(remote)) {
                return row.ours.create(status, text, null);
            }
        }
        return null;
    }
}
