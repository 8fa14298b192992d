package io.jupiter.rpc.internal.provider;

/** Whether the server drains: set once, read by admission, the hand-offs and the connection table. */
final class Draining {

    private volatile boolean on;

    /** From now on every new request is answered {@code SERVER_BUSY}, and new connections are closed. */
    void start() {
        on = true;
    }

    boolean isOn() {
        return on;
    }
}
