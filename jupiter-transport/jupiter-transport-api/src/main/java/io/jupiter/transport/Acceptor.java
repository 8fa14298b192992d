package io.jupiter.transport;

import java.net.SocketAddress;

/**
 * The server side: accepts connections on one address and feeds their frames to a {@link FrameHandler}. The address
 * is a TCP {@link java.net.InetSocketAddress}, a {@link java.net.UnixDomainSocketAddress} or an
 * {@link InProcessAddress} (see {@link TransportAddresses}).
 */
public interface Acceptor extends AutoCloseable {

    /**
     * Binds the address and starts accepting; returns once bound.
     *
     * @return the bound address (of the same kind as the one asked for; with TCP port 0, the port picked)
     * @throws TransportException if the address cannot be bound
     */
    SocketAddress start();

    /** The bound address, or {@code null} before {@link #start()}. */
    SocketAddress localAddress();

    /** The number of accepted connections open now. */
    int connectionCount();

    /** What peers did that made this acceptor close a connection or log a line, counted for metrics. */
    default PeerIncidents incidents() {
        return PeerIncidents.NONE;
    }

    /** Stops accepting, closes every connection and releases the IO threads; waits until they are gone. */
    @Override
    void close();
}
