package io.jupiter.registry.embedded.internal;

import io.jupiter.transport.Connection;
import java.net.InetSocketAddress;

/** The key the registry server throttles its warnings by: the peer's host, so one host cannot flood the log. */
final class PeerHost {

    private PeerHost() {
    }

    static Object of(Connection connection) {
        return connection.remoteAddress() instanceof InetSocketAddress remote ? remote.getAddress() : null;
    }
}
