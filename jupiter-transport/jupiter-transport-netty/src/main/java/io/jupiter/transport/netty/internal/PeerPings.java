package io.jupiter.transport.netty.internal;

/**
 * What a client knows of one peer address: whether it answers pings, and when bytes last came from it on any of the
 * group's connections. Whether it answers is learned from the first pong on any connection to it and kept for the
 * life of the connection group; until then the peer is treated as 1.3.1 (one-way heartbeats, no ack expected).
 */
public final class PeerPings {

    private volatile boolean answers;
    /** When a connection's keepalive last found bytes read from this peer ({@link System#nanoTime()}). */
    private volatile long heardNanos = System.nanoTime();

    /** Whether a pong ever came from this peer. */
    public boolean answers() {
        return answers;
    }

    /** A pong came. */
    void answered() {
        answers = true;
    }

    /** A connection's keepalive found bytes read from this peer since its last tick. */
    void heard(long nowNanos) {
        heardNanos = nowNanos;
    }

    /** Whether bytes came from this peer, on any connection, at or after {@code sinceNanos}. */
    boolean heardSince(long sinceNanos) {
        return heardNanos - sinceNanos >= 0;
    }
}
