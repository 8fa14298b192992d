package io.jupiter.rpc.internal.stream;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes buffered across the outbound streams of one connection on the provider, against a cap: a stream buffers
 * a message beyond its receiver's credit only if the connection's streams together stay within it. Lock-free, so a
 * stream may reserve and release under its own lock without ordering against the others.
 */
final class ConnectionStreamBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();

    ConnectionStreamBudget(long limit) {
        this.limit = limit;
    }

    /** Takes {@code bytes} of the budget if they fit; returns whether they did. */
    boolean tryReserve(long bytes) {
        while (true) {
            long now = used.get();
            if (now + bytes > limit) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Gives back {@code bytes} reserved before (a buffered message went out, was dropped or released). */
    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    /** Bytes buffered now across the connection's streams. */
    long used() {
        return used.get();
    }

    long limit() {
        return limit;
    }
}
