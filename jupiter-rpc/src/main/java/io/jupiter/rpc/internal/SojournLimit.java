package io.jupiter.rpc.internal;

import io.jupiter.common.Requires;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * How long a task may wait in a queue before it is not worth running any more: CoDel on sojourn time (Nichols and
 * Jacobson), as applied to server queues in Facebook's "Fail at Scale". Told the wait of the oldest queued task each
 * time a task is taken.
 *
 * <ul>
 * <li>The queue is judged every {@code min(interval, 100 ms)} (CoDel's own interval): it stands when no oldest task
 *     waited less than {@code target} in the last such period (and the queue was never found empty in it, and at
 *     least three tasks were taken): more arrives than is served. The next period in which one did ends it.</li>
 * <li>A queue that does not stand is a good queue (a burst, or a few calls behind slow ones): every task runs,
 *     however long it waited (a caller's deadline, when it sent one, still drops it).</li>
 * <li>While it stands a task may wait {@code interval} at most; the older ones are shed, and once the oldest waited
 *     half the interval the pool serves the newest first (adaptive LIFO, {@link WorkerPool}), whose callers still
 *     wait, instead of working off a backlog of calls whose callers gave up.</li>
 * </ul>
 * Shedding at {@code target} itself (Facebook's choice) turned every queue of a closed loop with more callers than
 * threads into errors, where the callers only waited a few method times before: measured, docs/reliability.md.
 * Judging within 100 ms but shedding only beyond the interval keeps those callers' calls, and still turns to the
 * newest calls within a fraction of a second of an overload. Lock-free and cheap on the path of each task: a clock
 * read by the caller, a few volatile reads, and a write only when a period ends, a task is shed, or a task waited
 * less than any before it in its period. The decisions of threads racing at a period's end may differ by one task;
 * that is all a race can cost.
 */
public final class SojournLimit {

    private static final AtomicLongFieldUpdater<SojournLimit> PERIOD_END =
            AtomicLongFieldUpdater.newUpdater(SojournLimit.class, "periodEnd");

    /** The longest period over which the queue is judged: CoDel's interval. */
    static final long JUDGED_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * Tasks that must be taken in a period for the queue to count as standing: one task that waited behind a
     * blocked thread is no backlog.
     */
    private static final int MIN_SAMPLES = 3;

    private final long targetNanos;
    private final long intervalNanos;
    private final long periodNanos;
    /** When the current period ends ({@link System#nanoTime()}). */
    private volatile long periodEnd;
    /** The least wait of an oldest task seen in the current period; 0 once the queue was found empty in it. */
    private volatile long minSojourn;
    /** Tasks taken in the current period, counted up to {@link #MIN_SAMPLES} only. */
    private volatile int samples;
    /** Whether the queue stands: tasks may then wait {@link #intervalNanos} only. */
    private volatile boolean standing;

    /**
     * @param targetNanos   what the shortest wait of a period must stay above for the queue to count as standing
     * @param intervalNanos the longest wait while the queue stands (half of it: the newest is served first); the
     *                      queue is judged over periods of this or 100 ms, whichever is shorter
     */
    public SojournLimit(long targetNanos, long intervalNanos) {
        this.targetNanos = Requires.positive(targetNanos, "targetNanos");
        this.intervalNanos = Requires.positive(intervalNanos, "intervalNanos");
        if (intervalNanos < targetNanos) {
            throw new IllegalArgumentException("intervalNanos: " + intervalNanos + " (expected: >= targetNanos "
                    + targetNanos + ")");
        }
        this.periodNanos = Math.min(intervalNanos, JUDGED_EVERY_NANOS);
        this.minSojourn = Long.MAX_VALUE;
        this.periodEnd = System.nanoTime() + periodNanos;
    }

    /**
     * A task is taken at {@code nowNanos}, the oldest queued one having waited {@code sojournNanos} (first in, first
     * out: the task itself): returns 0 to run it, else the limit it broke (it is to be shed).
     */
    public long limitBroken(long sojournNanos, long nowNanos) {
        oldestWaited(sojournNanos, nowNanos);
        return exceeds(sojournNanos) ? intervalNanos : 0;
    }

    /**
     * A task is taken at {@code nowNanos} while the oldest queued one has waited {@code sojournNanos}: counts it in
     * the current period, and judges the one that ended, if one did.
     */
    public void oldestWaited(long sojournNanos, long nowNanos) {
        long end = periodEnd;
        if (nowNanos - end >= 0) {
            if (PERIOD_END.compareAndSet(this, end, nowNanos + periodNanos)) {
                standing = minSojourn > targetNanos && samples >= MIN_SAMPLES;
                minSojourn = sojournNanos;
                samples = 1;
            }
            return;
        }
        if (sojournNanos < minSojourn) {
            minSojourn = sojournNanos;
        }
        if (samples < MIN_SAMPLES) {
            samples++; // racy on purpose: a lost count only delays the judgment by a task
        }
    }

    /** Whether a task that waited {@code sojournNanos} is to be shed: the queue stands and it waited too long. */
    public boolean exceeds(long sojournNanos) {
        return standing && sojournNanos > intervalNanos;
    }

    /** Whether a queue whose oldest task waited {@code sojournNanos} is to serve its newest first. */
    public boolean newestFirst(long sojournNanos) {
        return standing && sojournNanos > intervalNanos / 2;
    }

    /** A thread found the queue empty: it does not stand. */
    public void queueEmpty() {
        if (minSojourn != 0) {
            minSojourn = 0;
        }
    }

    /** Whether the queue stands now (tasks may wait {@code interval} only). */
    public boolean standing() {
        return standing;
    }

    public long targetNanos() {
        return targetNanos;
    }

    public long intervalNanos() {
        return intervalNanos;
    }
}
