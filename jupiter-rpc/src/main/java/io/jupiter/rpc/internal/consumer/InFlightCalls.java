package io.jupiter.rpc.internal.consumer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Predicate;

/**
 * The calls waiting for a response, found by invoke id. Ids come from a process-wide counter, so {@code id & mask}
 * spreads them over an array of slots and a lookup is one array load; a call whose slot is still held by an older,
 * slower call goes to an overflow map instead.
 *
 * <p>Removing a call is how its outcome is claimed: of the response, the timeout, a write failure and a closed
 * connection, exactly one succeeds in removing it, and only that one completes it.
 */
final class InFlightCalls {

    private static final int SLOTS = 1 << 16;
    private static final int MASK = SLOTS - 1;

    private final AtomicReferenceArray<PendingCall> slots = new AtomicReferenceArray<>(SLOTS);
    private final ConcurrentHashMap<Long, PendingCall> overflow = new ConcurrentHashMap<>();

    void add(PendingCall call) {
        int index = (int) call.id & MASK;
        if (!slots.compareAndSet(index, null, call)) {
            overflow.put(call.id, call);
        }
    }

    /** Removes and returns the call with this id, or {@code null} if it is gone (timed out, or unknown). */
    PendingCall remove(long id) {
        int index = (int) id & MASK;
        PendingCall call = slots.get(index);
        if (call != null && call.id == id && slots.compareAndSet(index, call, null)) {
            return call;
        }
        return overflow.isEmpty() ? null : overflow.remove(id);
    }

    /** Removes this very call; returns whether it was still waiting. */
    boolean remove(PendingCall call) {
        int index = (int) call.id & MASK;
        if (slots.get(index) == call) {
            return slots.compareAndSet(index, call, null);
        }
        return overflow.remove(call.id, call);
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
        return removed;
    }
}
