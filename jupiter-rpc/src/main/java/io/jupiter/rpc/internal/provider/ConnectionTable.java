package io.jupiter.rpc.internal.provider;

import io.jupiter.common.LogText;
import io.jupiter.rpc.security.CallerIdentifier;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frames;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's open connections, each with what it has admitted and who its caller is: one look-up per request. A
 * connection is named by the {@link CallerIdentifier} when it opens, or later by its caller token ({@link TokenGate});
 * one that opens while the server drains is closed at once.
 */
final class ConnectionTable {

    private static final Logger log = LoggerFactory.getLogger(ConnectionTable.class);

    private final ConcurrentHashMap<Connection, OpenConnection> connections = new ConcurrentHashMap<>();
    private final int maxInFlightPerConnection;
    private final long maxQueuedBytesPerConnection;
    /** {@code null}: no identifier names callers when their connections open. */
    private final CallerIdentifier identifier;
    /** {@code null}: no caller token is asked for. */
    private final TokenGate tokenGate;
    private final Draining draining;

    /**
     * @param maxInFlight    requests one connection may have queued, being read or running
     * @param maxQueuedBytes bytes of request bodies one connection may have not read yet
     */
    ConnectionTable(int maxInFlight, long maxQueuedBytes, CallerIdentifier identifier, TokenGate tokenGate,
                    Draining draining) {
        this.maxInFlightPerConnection = maxInFlight;
        this.maxQueuedBytesPerConnection = maxQueuedBytes;
        this.identifier = identifier;
        this.tokenGate = tokenGate;
        this.draining = draining;
    }

    /** What the server keeps of {@code connection}; {@code null} if it is not (or no longer) open. */
    OpenConnection get(Connection connection) {
        return connections.get(connection);
    }

    void connected(Connection connection) {
        CallerIdentity caller = null;
        CallerIdentifier who = identifier;
        if (who != null) {
            try {
                caller = Objects.requireNonNull(who.identify(connection), "caller identity");
            } catch (RuntimeException e) {
                log.warn("closing {}: its caller identity could not be established: {}",
                        connection.remoteAddress(), LogText.of(e.toString()));
                connection.close();
                return;
            }
        }
        if (tokenGate != null) {
            tokenGate.opened(connection);
        }
        connections.put(connection, new OpenConnection(connection,
                new ConnectionLoad(maxInFlightPerConnection, maxQueuedBytesPerConnection), caller));
        if (draining.isOn()) {
            // A consumer reconnecting to a server that is shutting down (it has not heard of the unpublish yet):
            // nothing would be served on it, and the drain waits for every connection to close.
            connection.close();
        }
    }

    /** Whether {@code connection} is still open here. */
    boolean contains(Connection connection) {
        return connections.containsKey(connection);
    }

    /** The connections open now. */
    Set<Connection> all() {
        return connections.keySet();
    }

    void disconnected(Connection connection) {
        connections.remove(connection);
        if (tokenGate != null) {
            tokenGate.closed(connection);
        }
    }

    /**
     * Closes every connection once the responses written so far are flushed, and waits until all are closed, up to
     * {@code deadlineNanos}; returns whether they were.
     */
    boolean closeAll(long deadlineNanos) throws InterruptedException {
        // Writes are ordered: a heartbeat written after the last response and then a close flushes every response.
        for (Connection connection : connections.keySet()) {
            connection.writeAndClose(Frames.heartbeat(connection.alloc()));
        }
        while (!connections.isEmpty() && System.nanoTime() - deadlineNanos < 0) {
            Thread.sleep(5); // waiting for the closes just started, within the drain's deadline
        }
        return connections.isEmpty();
    }
}
