package io.jupiter.registry.embedded.internal;

import io.jupiter.registry.RegisterMeta;
import io.jupiter.transport.Connection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the registry client sends and waits to see acknowledged: numbers each message, sends again what is not
 * acknowledged within the resend interval, and remembers which registrations a registry confirmed. Confined to the
 * client's worker thread.
 */
final class ClientOutbox {

    private final long resendNanos;
    private final Unacked unacked = new Unacked();
    /** The registration each PUBLISH awaiting its ACK carries. */
    private final Map<Long, RegisterMeta> publishes = new HashMap<>();
    private final Set<RegisterMeta> confirmed = new HashSet<>();
    private long nextSequence;

    ClientOutbox(long resendNanos) {
        this.resendNanos = resendNanos;
    }

    /** Sends a message that needs an ACK; returns its sequence number. */
    long send(Connection connection, byte code, Object data) {
        RegistryMessage message = new RegistryMessage(nextSequence++, RegistryFrames.PROTOSTUFF, code, 0, data);
        unacked.sent(connection, message);
        RegistryFrames.send(connection, message);
        return message.sequence();
    }

    /** Sends a PUBLISH; its ACK confirms the registration. */
    void publish(Connection connection, RegisterMeta meta) {
        long sequence = send(connection, RegistryFrames.PUBLISH_SERVICE, meta);
        publishes.put(sequence, meta);
    }

    /** An ACK arrived; confirms the registration it acknowledges if it is still {@code registered}. */
    void acked(Connection connection, long sequence, Set<RegisterMeta> registered) {
        Unacked.Entry entry = unacked.acked(connection, sequence);
        if (entry != null) {
            RegisterMeta meta = publishes.remove(sequence);
            if (meta != null && registered.contains(meta)) {
                confirmed.add(meta);
            }
        }
    }

    /** Forgets the confirmation of a withdrawn registration. */
    void unconfirm(RegisterMeta meta) {
        confirmed.remove(meta);
    }

    /** Whether a registry acknowledged every one of {@code registered}. */
    boolean confirmedAll(Set<RegisterMeta> registered) {
        return confirmed.containsAll(registered);
    }

    /** Forgets what was sent on a closed connection. */
    void forget(Connection connection) {
        unacked.forget(connection);
    }

    /** Sends again, on the same connection, each message not acknowledged within the resend interval. */
    void resendExpired() {
        for (Unacked.Entry entry : unacked.removeExpired(resendNanos)) {
            if (entry.connection().isActive()) {
                unacked.sent(entry.connection(), entry.message());
                RegistryFrames.send(entry.connection(), entry.message());
            }
        }
    }
}
