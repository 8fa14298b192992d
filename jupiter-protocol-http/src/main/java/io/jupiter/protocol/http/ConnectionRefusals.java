package io.jupiter.protocol.http;

import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.rpc.protocol.RefusalReasons;
import io.jupiter.transport.Connection;
import io.jupiter.transport.netty.internal.NettyConnection;
import io.netty.channel.Channel;

/**
 * Why the provider refused requests of one HTTP or gRPC connection, as it noted it
 * ({@link RefusalReasons}): watched while the connection's handler is in its pipeline, taken as each refusal's answer
 * reaches the handler, so the HTTP and gRPC codes come from the reason's type, never from the answer's text. IO
 * thread only.
 */
final class ConnectionRefusals {

    private final RefusalReasons reasons;
    /** The provider's view of the channel (the one its stages see); {@code null} until watched. */
    private Connection connection;
    private RefusalReasons.Watch watch;

    ConnectionRefusals(RefusalReasons reasons) {
        this.reasons = reasons;
    }

    /** Starts watching {@code channel}'s refusals (its handler was added). */
    void watch(Channel channel) {
        if (watch == null) {
            connection = NettyConnection.of(channel);
            watch = reasons.watch(connection);
        }
    }

    /** Stops watching (its handler was removed, as when the channel closes). */
    void forget() {
        if (connection != null) {
            reasons.forget(connection);
            connection = null;
            watch = null;
        }
    }

    /** The reason the provider noted for its refusal of request or stream {@code id}, or {@code null}. */
    RefusalReason take(long id) {
        return watch == null ? null : watch.take(id);
    }
}
