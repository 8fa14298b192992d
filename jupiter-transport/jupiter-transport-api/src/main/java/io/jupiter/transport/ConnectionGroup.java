package io.jupiter.transport;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The connections to one remote address, kept open by the {@link Connector}. */
public interface ConnectionGroup extends AutoCloseable {

    /** The remote address. */
    InetSocketAddress address();

    /** The next active connection in round-robin order, or {@code null} if none is active right now. */
    Connection next();

    /** The active connections now. */
    List<Connection> activeConnections();

    /** Whether at least one connection is active. */
    boolean isAvailable();

    /**
     * Whether a connection of this group has ever been active. Until then the group is still making its first
     * connections, and a caller may wait for them; after that, no active connection means the peer is down.
     */
    boolean everAvailable();

    /** Waits until at least one connection is active; returns whether one is. */
    boolean awaitAvailable(long timeout, TimeUnit unit) throws InterruptedException;

    /** Closes the connections and stops reconnecting. */
    @Override
    void close();
}
