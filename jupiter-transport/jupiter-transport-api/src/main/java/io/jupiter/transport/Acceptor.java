package io.jupiter.transport;

import java.net.InetSocketAddress;

/** The server side: accepts connections on one port and feeds their frames to a {@link FrameHandler}. */
public interface Acceptor extends AutoCloseable {

    /**
     * Binds the port and starts accepting; returns once bound.
     *
     * @return the bound address (useful with port 0)
     * @throws TransportException if the port cannot be bound
     */
    InetSocketAddress start();

    /** The bound address, or {@code null} before {@link #start()}. */
    InetSocketAddress localAddress();

    /** The number of accepted connections open now. */
    int connectionCount();

    /** Stops accepting, closes every connection and releases the IO threads; waits until they are gone. */
    @Override
    void close();
}
