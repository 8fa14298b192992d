package io.jupiter.transport.netty.internal;

/**
 * What a client knows of one peer address: whether it answers pings. Learned from the first pong on any connection
 * to it and kept for the life of the connection group; until then the peer is treated as 1.3.1 (one-way heartbeats,
 * no ack expected).
 */
public final class PeerPings {

    private volatile boolean answers;

    /** Whether a pong ever came from this peer. */
    public boolean answers() {
        return answers;
    }

    /** A pong came. */
    void answered() {
        answers = true;
    }
}
