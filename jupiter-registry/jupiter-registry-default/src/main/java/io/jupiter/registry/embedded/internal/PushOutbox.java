package io.jupiter.registry.embedded.internal;

import io.jupiter.common.ThrottledWarning;
import io.jupiter.transport.Connection;
import java.util.List;

/**
 * What the registry server sends to its subscribers: numbers each message, tracks the pushes awaiting an ACK,
 * closes a subscriber with too many of them (one WARN line), and hands back those not acknowledged within the
 * resend interval. Confined to the server's worker thread.
 */
final class PushOutbox {

    private final long resendNanos;
    private final int maxUnackedPushes;
    private final ThrottledWarning refused;
    private final Unacked unacked = new Unacked();
    private long nextSequence;

    PushOutbox(long resendNanos, int maxUnackedPushes, ThrottledWarning refused) {
        this.resendNanos = resendNanos;
        this.maxUnackedPushes = maxUnackedPushes;
        this.refused = refused;
    }

    /** A new message, numbered. */
    RegistryMessage message(byte code, long version, Object data) {
        return new RegistryMessage(nextSequence++, RegistryFrames.PROTOSTUFF, code, version, data);
    }

    /** Sends {@code message} if the connection is open; one that needs an ACK is tracked until it comes. */
    void send(Connection connection, RegistryMessage message, boolean needsAck) {
        if (!connection.isActive()) {
            return;
        }
        if (needsAck) {
            if (unacked.count(connection) >= maxUnackedPushes) {
                refused.warnFor(PeerHost.of(connection), "closing registry connection {}: {} pushes unacknowledged "
                        + "(the limit per connection)", connection.remoteAddress(), maxUnackedPushes);
                connection.close();
                return;
            }
            unacked.sent(connection, message);
        }
        RegistryFrames.send(connection, message);
    }

    void acked(Connection connection, long sequence) {
        unacked.acked(connection, sequence);
    }

    /** Forgets what was sent on a closed connection. */
    void forget(Connection connection) {
        unacked.forget(connection);
    }

    /** Removes and returns the pushes not acknowledged within the resend interval, for the caller to send again. */
    List<Unacked.Entry> removeExpired() {
        return unacked.removeExpired(resendNanos);
    }
}
