package io.jupiter.transport;

import java.net.SocketAddress;

/** The client side: opens and keeps connections to remote addresses. */
public interface Connector extends AutoCloseable {

    /**
     * Opens {@code connections} connections to {@code address} (TCP, Unix domain socket or in-process, see
     * {@link TransportAddresses}) in the background and keeps them open: a lost connection is reconnected with
     * exponential backoff and jitter until the group is closed.
     *
     * @throws TransportException if this transport cannot reach that kind of address (a Unix domain socket without
     *         native epoll); the message names the cause
     * @throws IllegalArgumentException if the configuration asks for TLS and the address is not TCP
     */
    ConnectionGroup connect(SocketAddress address, int connections);

    /** What peers did that made this connector close a connection or log a line, counted for metrics. */
    default PeerIncidents incidents() {
        return PeerIncidents.NONE;
    }

    /** Closes every group and releases the IO threads; waits until they are gone. */
    @Override
    void close();
}
