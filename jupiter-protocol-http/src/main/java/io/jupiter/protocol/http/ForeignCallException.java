package io.jupiter.protocol.http;

import io.jupiter.transport.Status;

/** A foreign request refused before it reached the provider: the status to answer with, and why. */
final class ForeignCallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final Status status;

    ForeignCallException(Status status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    Status status() {
        return status;
    }
}
