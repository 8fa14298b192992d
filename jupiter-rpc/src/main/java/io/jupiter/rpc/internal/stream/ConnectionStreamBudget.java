package io.jupiter.rpc.internal.stream;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes buffered across the outbound streams of one connection on the provider, against a cap: a stream buffers
 * a message beyond its receiver's credit only if the connection's streams together stay within it. Lock-free, so a
 * stream may reserve and release under its own lock without ordering against the others. A stream whose producer
 * waits for the cap registers as a waiter and is woken when bytes are given back ({@link #wakeWaiters}, called by
 * whoever released them once it holds no stream's lock); with nobody waiting, that is one read of an empty queue.
 */
final class ConnectionStreamBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();
    /** Streams whose producer waits for room under the cap; touched only when one does. */
    private final ConcurrentLinkedQueue<OutboundStream> waiters = new ConcurrentLinkedQueue<>();

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

    /**
     * Gives back {@code bytes} reserved before (a buffered message went out, was dropped or released). The caller
     * then calls {@link #wakeWaiters} once it holds no stream's lock.
     */
    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    /**
     * Registers {@code stream} as waiting for room. The stream then tries to reserve again before it waits, so a
     * release between its failed try and this registration is not missed.
     */
    void await(OutboundStream stream) {
        waiters.add(stream);
    }

    /** {@code stream} no longer waits (it got room, or it ended). */
    void stopWaiting(OutboundStream stream) {
        waiters.remove(stream);
    }

    /** Signals every waiting stream's producer to try again; call holding no stream's lock. */
    void wakeWaiters() {
        if (waiters.isEmpty()) {
            return;
        }
        for (OutboundStream waiter : waiters) {
            waiter.roomFreed();
        }
    }

    /** Streams whose producer waits for room now (for tests). */
    int waiting() {
        return waiters.size();
    }

    /** Bytes buffered now across the connection's streams. */
    long used() {
        return used.get();
    }

    long limit() {
        return limit;
    }
}
