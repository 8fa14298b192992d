package io.jupiter.protocol.http;

import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.transport.Status;

/** A foreign request refused before it reached the provider: the status to answer with, and why. */
final class ForeignCallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Status status;
    private final int grpcCode;
    /** The typed reason of a refusal of the caller ({@code 401}/{@code 403}); {@code null}: the status says it. */
    private final transient RefusalReason reason;

    ForeignCallException(Status status, String message) {
        this(status, StatusCodes.grpc(status), message);
    }

    /** A refusal whose gRPC code is not the status's own (a code gRPC's protocol prescribes for the case). */
    ForeignCallException(Status status, int grpcCode, String message) {
        this(status, grpcCode, null, message);
    }

    /** A refusal of the caller for {@code reason}, answered with {@code status} as the provider would. */
    ForeignCallException(Status status, RefusalReason reason, String message) {
        this(status, StatusCodes.grpc(status, reason), reason, message);
    }

    private ForeignCallException(Status status, int grpcCode, RefusalReason reason, String message) {
        super(message, null, false, false);
        this.status = status;
        this.grpcCode = grpcCode;
        this.reason = reason;
    }

    Status status() {
        return status;
    }

    /** The gRPC status code a gRPC caller gets. */
    int grpcCode() {
        return grpcCode;
    }

    /** Why the caller was refused, when that is what the refusal is; else {@code null}. */
    RefusalReason reason() {
        return reason;
    }
}
