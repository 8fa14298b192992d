package io.jupiter.transport;

import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The connections to one remote address, kept open by the {@link Connector}. */
public interface ConnectionGroup extends AutoCloseable {

    /** The remote address, as given to {@link Connector#connect}. */
    SocketAddress address();

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

    /**
     * Why the last connection of this group failed its TLS handshake, while none is active; {@code null} when one is
     * active, or the last attempt did not fail in the handshake (plaintext groups: always {@code null}). A failed
     * handshake is a mismatch of configuration (a plaintext server, a certificate or host name that does not
     * verify, a client certificate refused), not an outage: waiting for a reconnect will not help, so a caller may
     * fail at once.
     */
    default TransportException handshakeFailure() {
        return null;
    }

    /** Waits until at least one connection is active; returns whether one is. */
    boolean awaitAvailable(long timeout, TimeUnit unit) throws InterruptedException;

    /** Closes the connections and stops reconnecting. */
    @Override
    void close();
}
