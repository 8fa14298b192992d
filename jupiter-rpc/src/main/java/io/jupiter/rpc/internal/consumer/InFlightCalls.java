package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.StatusTable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Predicate;

/**
 * The calls waiting for a response, found by invoke id. Ids come from a process-wide counter, so {@code id & mask}
 * spreads them over an array of slots and a lookup is one array load; a call whose slot is still held by an older,
 * slower call goes to an overflow map instead.
 *
 * <p>Removing a call is how its outcome is claimed: of the response, the timeout, a write failure and a closed
 * connection, exactly one succeeds in removing it, and only that one completes it.
 *
 * <p>The table is also the client's window of calls in flight (async back-pressure): a call takes a permit before it
 * is sent and gives it back when it is removed. When all permits are taken a caller waits, within its timeout, for
 * one, so a burst of async calls slows down to what the providers answer instead of failing.
 */
final class InFlightCalls {

    /** No deadline noted. */
    static final long NONE = Long.MIN_VALUE;
    private static final AtomicLongFieldUpdater<InFlightCalls> EARLIEST_ADDED =
            AtomicLongFieldUpdater.newUpdater(InFlightCalls.class, "earliestAdded");

    private static final int SLOTS = 1 << 16;
    private static final int MASK = SLOTS - 1;

    private final AtomicReferenceArray<PendingCall> slots = new AtomicReferenceArray<>(SLOTS);
    private final ConcurrentHashMap<Long, PendingCall> overflow = new ConcurrentHashMap<>();
    private final int maxInFlight;
    private final Semaphore permits;
    private volatile long earliestAdded = NONE;

    InFlightCalls(int maxInFlight) {
        this.maxInFlight = maxInFlight;
        this.permits = new Semaphore(maxInFlight);
    }

    /**
     * Takes a slot of the window for a call about to be sent, waiting up to its timeout.
     *
     * @throws TimeoutException ({@code CLIENT_TIMEOUT}: the request was not sent) if no slot freed in time
     */
    void acquire(MethodInfo method) {
        if (permits.tryAcquire()) {
            return;
        }
        try {
            if (permits.tryAcquire(method.timeoutMillis, TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new TimeoutException(StatusTable.CLIENT_TIMEOUT.status(), method + " was not sent: all " + maxInFlight
                + " in-flight slots of this client stayed taken for " + method.timeoutMillis + " ms"
                + " (JupiterClient.Builder.maxInFlight)");
    }

    /**
     * Gives back a slot taken by {@link #acquire} for a call that was not added after all, or for an attempt of a
     * foreign protocol, which is never added (its protocol finds its answers): when the attempt ended.
     */
    void release() {
        permits.release();
    }

    void add(PendingCall call) {
        int index = (int) call.id & MASK;
        if (!slots.compareAndSet(index, null, call)) {
            overflow.put(call.id, call);
        }
        if (call.isAsync()) {
            noteAdded(call); // after it is in the table: see expire()
        }
    }

    /** Removes and returns the call with this id, or {@code null} if it is gone (timed out, or unknown). */
    PendingCall remove(long id) {
        int index = (int) id & MASK;
        PendingCall call = slots.get(index);
        if (call != null && call.id == id && slots.compareAndSet(index, call, null)) {
            permits.release();
            return call;
        }
        PendingCall removed = overflow.isEmpty() ? null : overflow.remove(id);
        if (removed != null) {
            permits.release();
        }
        return removed;
    }

    /** Removes this very call; returns whether it was still waiting. */
    boolean remove(PendingCall call) {
        int index = (int) call.id & MASK;
        boolean removed = slots.get(index) == call ? slots.compareAndSet(index, call, null)
                : overflow.remove(call.id, call);
        if (removed) {
            permits.release();
        }
        return removed;
    }

    /** Whether no call is in flight (racy: a call may come or go as it returns). */
    boolean isEmpty() {
        return permits.availablePermits() == maxInFlight;
    }

    /**
     * The earliest deadline of the asynchronous calls added since the last {@link #expire} began, or {@link #NONE}:
     * the sweep walks the table again no later than that.
     */
    long earliestAddedDeadline() {
        return earliestAdded;
    }

    private void noteAdded(PendingCall call) {
        long deadline = call.deadlineNanos();
        long earliest;
        while (((earliest = earliestAdded) == NONE || deadline - earliest < 0)
                && !EARLIEST_ADDED.compareAndSet(this, earliest, deadline)) {
            Thread.onSpinWait();
        }
    }

    /**
     * Removes and fails every asynchronous call whose timeout passed by {@code nowNanos}; returns the earliest
     * deadline of those left ({@code nowNanos + Long.MAX_VALUE / 2} when none is). Walks the whole table: for the
     * {@link TimeoutSweep} only.
     */
    long expire(long nowNanos) {
        // Calls added from here on note their deadlines again; those noted before are in the table, and found below.
        earliestAdded = NONE;
        long earliest = nowNanos + Long.MAX_VALUE / 2;
        for (int i = 0; i < SLOTS; i++) {
            PendingCall call = slots.get(i);
            if (call != null) {
                earliest = expire(call, nowNanos, earliest, i);
            }
        }
        if (!overflow.isEmpty()) {
            for (PendingCall call : overflow.values()) {
                earliest = expire(call, nowNanos, earliest, -1);
            }
        }
        return earliest;
    }

    /** @param slot the call's slot, or -1 if it is in the overflow map */
    private long expire(PendingCall call, long nowNanos, long earliest, int slot) {
        if (!call.isAsync()) {
            return earliest;
        }
        if (call.expiredBy(nowNanos)) {
            if (slot >= 0 ? slots.compareAndSet(slot, call, null) : overflow.remove(call.id, call)) {
                permits.release();
                call.timedOut();
            }
            return earliest;
        }
        return call.deadlineNanos() - earliest < 0 ? call.deadlineNanos() : earliest;
    }

    /** Removes and returns every call matching {@code filter}. Walks the whole table: for rare events only. */
    List<PendingCall> removeAll(Predicate<PendingCall> filter) {
        List<PendingCall> removed = new ArrayList<>();
        for (int i = 0; i < SLOTS; i++) {
            PendingCall call = slots.get(i);
            if (call != null && filter.test(call) && slots.compareAndSet(i, call, null)) {
                removed.add(call);
            }
        }
        for (PendingCall call : overflow.values()) {
            if (filter.test(call) && overflow.remove(call.id, call)) {
                removed.add(call);
            }
        }
        permits.release(removed.size());
        return removed;
    }
}
