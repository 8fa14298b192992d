package io.jupiter.protocol.http;

import io.jupiter.transport.Status;

/** A foreign request refused before it reached the provider: the status to answer with, and why. */
final class ForeignCallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Status status;
    private final int grpcCode;

    ForeignCallException(Status status, String message) {
        this(status, StatusCodes.grpc(status, message), message);
    }

    /** A refusal whose gRPC code is not the status's own (a code gRPC's protocol prescribes for the case). */
    ForeignCallException(Status status, int grpcCode, String message) {
        super(message, null, false, false);
        this.status = status;
        this.grpcCode = grpcCode;
    }

    Status status() {
        return status;
    }

    /** The gRPC status code a gRPC caller gets. */
    int grpcCode() {
        return grpcCode;
    }
}
