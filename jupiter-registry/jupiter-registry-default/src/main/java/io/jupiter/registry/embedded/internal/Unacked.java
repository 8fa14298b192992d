package io.jupiter.registry.embedded.internal;

import io.jupiter.transport.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Messages sent and not yet acknowledged, by sequence. Confined to the owner's single worker thread.
 */
final class Unacked {

    /** One message waiting for its ACK. */
    record Entry(Connection connection, RegistryMessage message, long sentNanos) {
    }

    private final Map<Long, Entry> bySequence = new LinkedHashMap<>();
    private final Map<Connection, Integer> perConnection = new HashMap<>();

    void sent(Connection connection, RegistryMessage message) {
        Entry previous = bySequence.put(message.sequence(), new Entry(connection, message, System.nanoTime()));
        if (previous != null) {
            uncount(previous.connection());
        }
        perConnection.merge(connection, 1, Integer::sum);
    }

    /** How many messages sent on {@code connection} wait for their ACK. */
    int count(Connection connection) {
        return perConnection.getOrDefault(connection, 0);
    }

    private void uncount(Connection connection) {
        perConnection.computeIfPresent(connection, (c, n) -> n == 1 ? null : n - 1);
    }

    /** The acknowledged message, or {@code null}. Only the connection it was sent on can acknowledge it. */
    Entry acked(Connection connection, long sequence) {
        Entry entry = bySequence.get(sequence);
        if (entry == null || entry.connection() != connection) {
            return null;
        }
        uncount(connection);
        return bySequence.remove(sequence);
    }

    /** Removes and returns every entry sent longer than {@code afterNanos} ago. */
    List<Entry> removeExpired(long afterNanos) {
        long now = System.nanoTime();
        List<Entry> expired = new ArrayList<>();
        for (Iterator<Entry> it = bySequence.values().iterator(); it.hasNext(); ) {
            Entry entry = it.next();
            if (now - entry.sentNanos() >= afterNanos) {
                expired.add(entry);
                it.remove();
                uncount(entry.connection());
            }
        }
        return expired;
    }

    /** Forgets what was sent on a closed connection. */
    void forget(Connection connection) {
        bySequence.values().removeIf(entry -> entry.connection() == connection);
        perConnection.remove(connection);
    }

    int size() {
        return bySequence.size();
    }
}
