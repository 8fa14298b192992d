package io.jupiter.rpc.internal.stream;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes the outbound streams of one connection hold on the provider, in two parts each capped at the limit:
 * those <em>buffered</em> beyond their receivers' credit, and those <em>sent</em> against credit that wait for the
 * connection's IO thread (the connection's stream writer). A stream takes a message only if its part stays within
 * the cap, whatever credit its receiver granted; else its {@link io.jupiter.rpc.stream.SlowConsumerPolicy} applies.
 * Two parts, so that the buffers of streams whose receivers read nothing never hold back a stream whose receiver
 * asked; the connection's streams hold at most twice the limit together.
 *
 * <p>Lock-free, so a stream may reserve and release under its own lock without ordering against the others. A stream
 * whose producer waits for the cap registers as a waiter and is woken when bytes are given back
 * ({@link #wakeWaiters}, called by whoever released them once it holds no stream's lock): only as many as the room
 * freed takes, so a connection whose peer reads slowly does not wake all its producers for every message written.
 * With nobody waiting, that is one read of an empty queue.
 */
final class ConnectionStreamBudget {

    private final long limit;
    private final AtomicLong buffered = new AtomicLong();
    private final AtomicLong sending = new AtomicLong();
    /** Streams whose producer waits for room under the cap, oldest first; touched only when one does. */
    private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();

    ConnectionStreamBudget(long limit) {
        this.limit = limit;
    }

    /** Takes {@code bytes} to buffer beyond credit if they fit (or nothing is buffered); returns whether they did. */
    boolean tryBuffer(long bytes) {
        return tryTake(buffered, bytes);
    }

    /** Takes {@code bytes} to send against credit if they fit (or nothing is sending); returns whether they did. */
    boolean trySend(long bytes) {
        return tryTake(sending, bytes);
    }

    /** A message of {@code bytes} buffered before goes out against credit: it now waits for the IO thread. */
    void sendBuffered(long bytes) {
        buffered.addAndGet(-bytes);
        sending.addAndGet(bytes);
    }

    /** Takes {@code bytes} to send whether they fit or not: a stream's end frame, small and one per stream. */
    void sendAnyway(long bytes) {
        sending.addAndGet(bytes);
    }

    /** A message larger than the cap goes alone. */
    private boolean tryTake(AtomicLong part, long bytes) {
        while (true) {
            long now = part.get();
            if (now + bytes > limit && now > 0) {
                return false;
            }
            if (part.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /**
     * Gives back {@code bytes} buffered (dropped or released). The caller then calls {@link #wakeWaiters} once it
     * holds no stream's lock.
     */
    void releaseBuffered(long bytes) {
        buffered.addAndGet(-bytes);
    }

    /** Gives back {@code bytes} sent (handed to the connection, or released); then {@link #wakeWaiters}. */
    void releaseSending(long bytes) {
        sending.addAndGet(-bytes);
    }

    /**
     * Registers {@code stream} (what wakes its producer) as waiting for room for {@code bytes}, to send if
     * {@code toSend}, else to buffer. The stream then tries to reserve again before it waits, so a release between its
     * failed try and this registration is not missed.
     */
    void await(Runnable stream, long bytes, boolean toSend) {
        waiters.add(new Waiter(stream, bytes, toSend));
    }

    /** {@code stream} no longer waits (it got room, or it ended). */
    void stopWaiting(Runnable stream) {
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
        long sendRoom = limit - sending.get();
        long bufferRoom = limit - buffered.get();
        boolean sendEmpty = sendRoom >= limit;
        boolean bufferEmpty = bufferRoom >= limit;
        for (Waiter waiter : waiters) {
            if (waiter.toSend && (waiter.bytes <= sendRoom || sendEmpty)) {
                sendRoom -= waiter.bytes;
                sendEmpty = false;
                waiter.stream.run();
            } else if (!waiter.toSend && (waiter.bytes <= bufferRoom || bufferEmpty)) {
                bufferRoom -= waiter.bytes;
                bufferEmpty = false;
                waiter.stream.run();
            }
        }
    }

    /** Streams whose producer waits for room now (for tests). */
    int waiting() {
        return waiters.size();
    }

    /** Bytes buffered now beyond their receivers' credit, across the connection's streams. */
    long buffered() {
        return buffered.get();
    }

    /** Bytes held now across the connection's streams: buffered, and sent but not yet handed to the connection. */
    long held() {
        return buffered.get() + sending.get();
    }

    long limit() {
        return limit;
    }

    /** A producer waiting for room for a message of {@code bytes}. */
    private record Waiter(Runnable stream, long bytes, boolean toSend) {
    }
}
