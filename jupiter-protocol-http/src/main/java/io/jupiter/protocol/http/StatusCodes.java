package io.jupiter.protocol.http;

import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.transport.Status;

/**
 * What each {@link Status} is in HTTP and in gRPC: one row per status, the one table of this module. A status that
 * proves the method did not run ({@code SERVER_BUSY}, flow control) maps to codes clients retry
 * ({@code 503}/{@code UNAVAILABLE}, {@code 429}/{@code RESOURCE_EXHAUSTED}).
 *
 * <pre>
 * status                    HTTP  gRPC
 * OK                        200   0  OK
 * CLIENT_ERROR              502   14 UNAVAILABLE
 * CLIENT_TIMEOUT            504   4  DEADLINE_EXCEEDED
 * SERVER_TIMEOUT            504   4  DEADLINE_EXCEEDED
 * BAD_REQUEST               400   3  INVALID_ARGUMENT
 * SERVICE_NOT_FOUND         404   12 UNIMPLEMENTED
 * SERVER_ERROR              500   13 INTERNAL
 * SERVER_BUSY               503   14 UNAVAILABLE
 * SERVICE_EXPECTED_ERROR    500   2  UNKNOWN
 * SERVICE_UNEXPECTED_ERROR  500   2  UNKNOWN
 * APP_FLOW_CONTROL          429   8  RESOURCE_EXHAUSTED
 * PROVIDER_FLOW_CONTROL     429   8  RESOURCE_EXHAUSTED
 * DESERIALIZATION_FAIL      500   13 INTERNAL
 * STREAM_CANCELLED          499   1  CANCELLED
 * SLOW_CONSUMER             429   8  RESOURCE_EXHAUSTED
 * SHUTTING_DOWN             503   14 UNAVAILABLE
 * UNKNOWN                   500   2  UNKNOWN
 * </pre>
 */
enum StatusCodes {
    OK(Status.OK, 200, 0),
    CLIENT_ERROR(StatusTable.CLIENT_ERROR.status(), 502, 14),
    CLIENT_TIMEOUT(StatusTable.CLIENT_TIMEOUT.status(), 504, 4),
    SERVER_TIMEOUT(StatusTable.SERVER_TIMEOUT.status(), 504, 4),
    BAD_REQUEST(StatusTable.BAD_REQUEST.status(), 400, 3),
    SERVICE_NOT_FOUND(StatusTable.SERVICE_NOT_FOUND.status(), 404, 12),
    SERVER_ERROR(StatusTable.SERVER_ERROR.status(), 500, 13),
    SERVER_BUSY(StatusTable.SERVER_BUSY.status(), 503, 14),
    SERVICE_EXPECTED_ERROR(StatusTable.SERVICE_EXPECTED_ERROR.status(), 500, 2),
    SERVICE_UNEXPECTED_ERROR(StatusTable.SERVICE_UNEXPECTED_ERROR.status(), 500, 2),
    APP_FLOW_CONTROL(StatusTable.APP_FLOW_CONTROL.status(), 429, 8),
    PROVIDER_FLOW_CONTROL(StatusTable.PROVIDER_FLOW_CONTROL.status(), 429, 8),
    DESERIALIZATION_FAIL(StatusTable.DESERIALIZATION_FAIL.status(), 500, 13),
    STREAM_CANCELLED(StatusTable.STREAM_CANCELLED.status(), 499, 1),
    SLOW_CONSUMER(StatusTable.SLOW_CONSUMER.status(), 429, 8),
    SHUTTING_DOWN(StatusTable.SHUTTING_DOWN.status(), 503, 14),
    UNKNOWN(StatusTable.UNKNOWN.status(), 500, 2);

    /** gRPC's PERMISSION_DENIED, for the provider's refusal of a caller its authorizer does not permit. */
    static final int GRPC_PERMISSION_DENIED = 7;
    /** HTTP's 403 Forbidden, for the same refusal. */
    static final int HTTP_FORBIDDEN = 403;
    /** gRPC's UNAUTHENTICATED, for a caller token missing or refused. */
    static final int GRPC_UNAUTHENTICATED = 16;
    /** HTTP's 401 Unauthorized, for the same refusal. */
    static final int HTTP_UNAUTHORIZED = 401;

    /** gRPC's DEADLINE_EXCEEDED, for a deadline this module enforces itself. */
    static final int GRPC_DEADLINE_EXCEEDED = 4;

    private static final StatusCodes[] BY_STATUS = new StatusCodes[Status.values().length];

    static {
        for (StatusCodes row : values()) {
            BY_STATUS[row.status.ordinal()] = row;
        }
        for (Status status : Status.values()) {
            if (BY_STATUS[status.ordinal()] == null) {
                throw new ExceptionInInitializerError("no row for status " + status);
            }
        }
    }

    private final Status status;
    private final int http;
    private final int grpc;

    StatusCodes(Status status, int http, int grpc) {
        this.status = status;
        this.http = http;
        this.grpc = grpc;
    }

    static int http(Status status) {
        return BY_STATUS[status.ordinal()].http;
    }

    static int grpc(Status status) {
        return BY_STATUS[status.ordinal()].grpc;
    }

    /**
     * The HTTP status of a call the provider refused with {@code status} for {@code reason}: {@code 401} for an
     * unknown caller, {@code 403} for a forbidden one (1.3.1 answers both {@code BAD_REQUEST}), else
     * {@link #http(Status)}.
     *
     * @param reason the reason the provider noted ({@link io.jupiter.rpc.protocol.RefusalReasons}), or {@code null}
     */
    static int http(Status status, RefusalReason reason) {
        if (reason == null) {
            return http(status);
        }
        return switch (reason) {
            case UNAUTHENTICATED -> HTTP_UNAUTHORIZED;
            case NOT_AUTHORIZED -> HTTP_FORBIDDEN;
        };
    }

    /** As {@link #http(Status, RefusalReason)}, in gRPC: {@code UNAUTHENTICATED}, {@code PERMISSION_DENIED}. */
    static int grpc(Status status, RefusalReason reason) {
        if (reason == null) {
            return grpc(status);
        }
        return switch (reason) {
            case UNAUTHENTICATED -> GRPC_UNAUTHENTICATED;
            case NOT_AUTHORIZED -> GRPC_PERMISSION_DENIED;
        };
    }
}
