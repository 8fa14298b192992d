package io.jupiter.benchmark.overload;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A count per second of a run, by the second an event's time falls in; events before the start are not counted,
 * those after the last second go to the last.
 */
final class PerSecond {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final AtomicLongArray counts;
    private volatile long startNanos = Long.MAX_VALUE;

    PerSecond(int seconds) {
        counts = new AtomicLongArray(seconds);
    }

    void start(long nanos) {
        startNanos = nanos;
    }

    /** The second of {@code nanos}, or -1 before the start. */
    int secondOf(long nanos) {
        long start = startNanos;
        if (start == Long.MAX_VALUE || nanos - start < 0) {
            return -1;
        }
        return (int) Math.min(counts.length() - 1, (nanos - start) / SECOND);
    }

    void add(long nanos) {
        int second = secondOf(nanos);
        if (second >= 0) {
            counts.incrementAndGet(second);
        }
    }

    long get(int second) {
        return counts.get(second);
    }

    long sum(int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += counts.get(i);
        }
        return sum;
    }
}
