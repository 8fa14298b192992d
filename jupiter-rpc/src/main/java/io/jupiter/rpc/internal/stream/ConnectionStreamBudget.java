package io.jupiter.rpc.internal.stream;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes the outbound streams of one connection hold on the provider, against a cap: those buffered beyond their
 * receivers' credit, and those sent against credit that wait for the connection's IO thread ({@link StreamWriter}).
 * A stream takes a message (to send or to buffer) only if the connection's streams together stay within the cap,
 * whatever credit its receiver granted; else its {@link io.jupiter.rpc.stream.SlowConsumerPolicy} applies.
 * Lock-free, so a stream may reserve and release under its own lock without ordering against the others. A stream
 * whose producer waits for the cap registers as a waiter and is woken when bytes are given back
 * ({@link #wakeWaiters}, called by whoever released them once it holds no stream's lock): only as many as the room
 * freed takes, so a connection whose peer reads slowly does not wake all its producers for every message written.
 * With nobody waiting, that is one read of an empty queue.
 */
final class ConnectionStreamBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();
    /** Streams whose producer waits for room under the cap, oldest first; touched only when one does. */
    private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();

    ConnectionStreamBudget(long limit) {
        this.limit = limit;
    }

    /**
     * Takes {@code bytes} of the budget if they fit, or if nothing is held (a message larger than the cap goes alone);
     * returns whether they did.
     */
    boolean tryReserve(long bytes) {
        while (true) {
            long now = used.get();
            if (now + bytes > limit && now > 0) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Takes {@code bytes} whether they fit or not: a stream's end frame, small and one per stream. */
    void reserveAnyway(long bytes) {
        used.addAndGet(bytes);
    }

    /**
     * Gives back {@code bytes} reserved before (a message was handed to the connection, was dropped or released).
     * The caller then calls {@link #wakeWaiters} once it holds no stream's lock.
     */
    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    /**
     * Registers {@code stream} as waiting for room for {@code bytes}. The stream then tries to reserve again before it
     * waits, so a release between its failed try and this registration is not missed.
     */
    void await(OutboundStream stream, long bytes) {
        waiters.add(new Waiter(stream, bytes));
    }

    /** {@code stream} no longer waits (it got room, or it ended). */
    void stopWaiting(OutboundStream stream) {
        waiters.removeIf(waiter -> waiter.stream == stream);
    }

    /**
     * Signals the producers waiting, oldest first, whose message fits in the room there is now, to try again; call
     * holding no stream's lock.
     */
    void wakeWaiters() {
        if (waiters.isEmpty()) {
            return;
        }
        long room = limit - used.get();
        boolean empty = room >= limit;
        for (Waiter waiter : waiters) {
            if (waiter.bytes <= room || empty) {
                room -= waiter.bytes;
                empty = false;
                waiter.stream.roomFreed();
            }
        }
    }

    /** A producer waiting for room for a message of {@code bytes}. */
    private record Waiter(OutboundStream stream, long bytes) {
    }

    /** Streams whose producer waits for room now (for tests). */
    int waiting() {
        return waiters.size();
    }

    /** Bytes held now across the connection's streams: buffered, or waiting for the IO thread. */
    long used() {
        return used.get();
    }

    long limit() {
        return limit;
    }
}
