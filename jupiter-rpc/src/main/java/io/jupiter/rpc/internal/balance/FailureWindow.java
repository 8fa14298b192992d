package io.jupiter.rpc.internal.balance;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One provider's attempts and failures over a sliding window, for outlier ejection by failure rate: ten slices of a
 * tenth of the window each, one {@code long} per slice holding the slice's number (low 32 bits of
 * {@code nanoTime / sliceNanos}), its attempts (16 bits) and its failures (16 bits). Recording is a compare-and-set
 * on one slice; a slice whose number is old is started again by the first attempt that lands in it, so memory stays
 * at ten longs whatever the traffic. A slice full at 65,535 attempts stops counting until the next one (the share
 * is then that of its first 65,535): no overflow, and the share stays an honest sample.
 */
final class FailureWindow {

    static final int SLICES = 10;
    private static final long MAX_COUNT = 0xFFFF;

    private final AtomicLongArray slices = new AtomicLongArray(SLICES);

    /** Counts one attempt (a failure if {@code failed}) at {@code nowNanos}. */
    void record(boolean failed, long nowNanos, long sliceNanos) {
        long number = nowNanos / sliceNanos;
        int index = Math.floorMod(number, SLICES);
        long tag = (number & 0xFFFF_FFFFL) << 32;
        for (;;) {
            long slice = slices.get(index);
            long next;
            if ((slice & 0xFFFF_FFFF_0000_0000L) != tag) {
                next = tag | (1L << 16) | (failed ? 1 : 0);
            } else {
                long attempts = (slice >>> 16) & MAX_COUNT;
                if (attempts == MAX_COUNT) {
                    return;
                }
                next = slice + (1L << 16) + (failed ? 1 : 0);
            }
            if (slices.compareAndSet(index, slice, next)) {
                return;
            }
        }
    }

    /**
     * Whether, over the slices of the window that ends at {@code nowNanos}, there were at least {@code minAttempts}
     * attempts and at least {@code percent} % of them failed.
     */
    boolean exceeds(int percent, int minAttempts, long nowNanos, long sliceNanos) {
        long number = nowNanos / sliceNanos;
        long attempts = 0;
        long failures = 0;
        for (int i = 0; i < SLICES; i++) {
            long slice = slices.get(i);
            long age = (number - (slice >>> 32)) & 0xFFFF_FFFFL;
            if (slice != 0 && age < SLICES) {
                attempts += (slice >>> 16) & MAX_COUNT;
                failures += slice & MAX_COUNT;
            }
        }
        return attempts >= minAttempts && failures * 100 >= attempts * percent;
    }

    /** Forgets every attempt (an ejected provider starts again from nothing when it returns). */
    void clear() {
        for (int i = 0; i < SLICES; i++) {
            slices.set(i, 0);
        }
    }
}
