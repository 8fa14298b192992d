package io.jupiter.benchmark.overload;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The provider's side of {@link Workload}: counts its executions by the second the call was offered, and among them
 * those that ended after the caller's timeout (work for nobody). {@link #failingPercent} of {@code who} calls throw
 * an exception the method does not declare (every n-th of a hundred, so the share is exact).
 */
final class Workers implements Workload {

    private final String name;
    private final long timeoutNanos;
    private final PerSecond executed;
    private final PerSecond forNobody;
    /** {@code work} executions, over the whole run (the capacity run included). */
    final AtomicLong workDone = new AtomicLong();
    /** {@code who} calls run, over the whole run. */
    final AtomicLong whoCalls = new AtomicLong();
    final AtomicInteger failingPercent = new AtomicInteger();
    private volatile long originNanos;

    /**
     * @param timeoutMillis the callers' timeout: an execution ending later than this after its offer ran for nobody
     * @param seconds       seconds of the run counted by second (later ones go to the last)
     */
    Workers(String name, long timeoutMillis, int seconds) {
        this.name = name;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.executed = new PerSecond(seconds);
        this.forNobody = new PerSecond(seconds);
    }

    /** Second 0 starts now (before: not counted). */
    void startCounting(long nanos) {
        originNanos = nanos;
        executed.start(nanos);
        forNobody.start(nanos);
    }

    @Override
    public String work(long offeredNanos, int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workDone.incrementAndGet();
        if (originNanos != 0) {
            executed.add(offeredNanos);
            if (System.nanoTime() - offeredNanos > timeoutNanos) {
                forNobody.add(offeredNanos);
            }
        }
        return name;
    }

    @Override
    public String who() {
        long n = whoCalls.incrementAndGet();
        if (originNanos != 0) {
            executed.add(System.nanoTime());
        }
        if (n % 100 < failingPercent.get()) {
            throw new IllegalStateException(name + " is sick (a broken dependency)");
        }
        return name;
    }

    PerSecond executed() {
        return executed;
    }

    PerSecond forNobody() {
        return forNobody;
    }
}
