package io.jupiter.rpc.internal;

import io.jupiter.common.Requires;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * How long a task may wait in a queue before it is not worth running any more: CoDel on sojourn time (Nichols and
 * Jacobson), as applied to server queues in Facebook's "Fail at Scale". Asked as each task leaves the queue.
 *
 * <ul>
 * <li>A queue that drains within an {@code interval} is a good queue (a burst, or a few calls behind slow ones):
 *     every task runs, however long it waited (a caller's deadline, when it sent one, still drops it).</li>
 * <li>When no task left the queue after less than {@code target} for a whole interval (and the queue was never
 *     found empty meanwhile, and at least three tasks left it), the queue is standing: more arrives than is
 *     served. From then on a task may wait
 *     {@code interval} at most; the older ones are shed, and the pool serves the newest first (adaptive LIFO,
 *     {@link WorkerPool}), whose callers still wait, instead of working off a backlog of calls whose callers gave
 *     up.</li>
 * <li>The queue stops standing after a whole interval in which nothing was shed.</li>
 * </ul>
 * Shedding at {@code target} itself (Facebook's choice) turned every queue of a closed loop with more callers than
 * threads into errors, where the callers only waited a few method times before: measured, docs/reliability.md.
 * Lock-free and cheap on the path of each task: a clock read by the caller, a few volatile reads, and a write only
 * when an interval ends, a task is shed, or a task waited less than any before it in its interval. The decisions
 * of threads racing at an interval's end may differ by one task; that is all a race can cost.
 */
public final class SojournLimit {

    private static final AtomicLongFieldUpdater<SojournLimit> INTERVAL_END =
            AtomicLongFieldUpdater.newUpdater(SojournLimit.class, "intervalEnd");

    /**
     * Tasks that must leave the queue in an interval for it to count as standing: one task that waited behind a
     * blocked thread is no backlog.
     */
    private static final int MIN_SAMPLES = 3;

    private final long targetNanos;
    private final long intervalNanos;
    /** When the current interval ends ({@link System#nanoTime()}). */
    private volatile long intervalEnd;
    /** The least sojourn seen in the current interval; 0 once the queue was found empty in it. */
    private volatile long minSojourn;
    /** Tasks that left the queue in the current interval, counted up to {@link #MIN_SAMPLES} only. */
    private volatile int samples;
    /** Whether a task was shed in the current interval. */
    private volatile boolean shedInInterval;
    /** Whether the queue stands: tasks may then wait {@link #targetNanos} only. */
    private volatile boolean standing;

    /**
     * @param targetNanos   what the shortest wait of an interval must stay above for the queue to count as standing
     * @param intervalNanos how long a queue must stand before it counts as standing (and shed nothing before it no
     *                      longer does), and the longest wait while it stands
     */
    public SojournLimit(long targetNanos, long intervalNanos) {
        this.targetNanos = Requires.positive(targetNanos, "targetNanos");
        this.intervalNanos = Requires.positive(intervalNanos, "intervalNanos");
        if (intervalNanos < targetNanos) {
            throw new IllegalArgumentException("intervalNanos: " + intervalNanos + " (expected: >= targetNanos "
                    + targetNanos + ")");
        }
        this.intervalEnd = System.nanoTime() + intervalNanos;
    }

    /**
     * A task leaves the queue at {@code nowNanos} after waiting {@code sojournNanos}: returns 0 to run it, else the
     * limit it broke (it is to be shed).
     */
    public long limitBroken(long sojournNanos, long nowNanos) {
        long end = intervalEnd;
        if (nowNanos - end >= 0) {
            if (INTERVAL_END.compareAndSet(this, end, nowNanos + intervalNanos)) {
                // Judge the interval that ended: a standing queue shed in it, a new one never drained below target.
                standing = standing ? shedInInterval : minSojourn > targetNanos && samples >= MIN_SAMPLES;
                shedInInterval = false;
                minSojourn = sojournNanos;
                samples = 1;
            }
        } else {
            if (sojournNanos < minSojourn) {
                minSojourn = sojournNanos;
            }
            if (samples < MIN_SAMPLES) {
                samples++; // racy on purpose: a lost count only delays the judgment by a task
            }
        }
        if (!standing || sojournNanos <= intervalNanos) {
            return 0;
        }
        if (!shedInInterval) {
            shedInInterval = true;
        }
        return intervalNanos;
    }

    /** A thread found the queue empty: it does not stand. */
    public void queueEmpty() {
        if (minSojourn != 0) {
            minSojourn = 0;
        }
    }

    /** Whether the queue stands now (tasks may wait {@code interval} only, the newest served first). */
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
