package io.jupiter.protocol.http;

import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.rpc.protocol.RefusalReasons;
import io.jupiter.transport.Connection;

/**
 * Why the provider refused requests of one HTTP or gRPC connection, as it noted it
 * ({@link RefusalReasons}): watched while the connection's handler is in its pipeline, taken as each refusal's answer
 * reaches the handler, so the HTTP and gRPC codes come from the reason's type, never from the answer's text. IO
 * thread only.
 */
final class ConnectionRefusals {

    private final RefusalReasons reasons;
    /** The provider's view of the channel (the one its stages see). */
    private final Connection connection;
    private RefusalReasons.Watch watch;

    ConnectionRefusals(RefusalReasons reasons, Connection connection) {
        this.reasons = reasons;
        this.connection = connection;
    }

    /** Starts watching the connection's refusals (its handler was added). */
    void watch() {
        if (watch == null) {
            watch = reasons.watch(connection);
        }
    }

    /** Stops watching (its handler was removed, as when the channel closes). */
    void forget() {
        if (watch != null) {
            reasons.forget(connection);
            watch = null;
        }
    }

    /** The reason the provider noted for its refusal of request or stream {@code id}, or {@code null}. */
    RefusalReason take(long id) {
        return watch == null ? null : watch.take(id);
    }
}
