package io.jupiter.protocol.http;

import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.transport.Status;

/** The provider's table ({@link StatusCodes}, package-private) for the consumer's tests in another package. */
public final class ProviderCodes {

    private ProviderCodes() {
    }

    /** The gRPC code the provider answers a call refused or failed with {@code status} for {@code reason}. */
    public static int grpc(Status status, RefusalReason reason) {
        return StatusCodes.grpc(status, reason);
    }
}
