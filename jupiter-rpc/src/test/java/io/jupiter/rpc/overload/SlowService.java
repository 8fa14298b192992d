package io.jupiter.rpc.overload;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/** A method that waits like a database call, and counts the calls it ran for callers that had already given up. */
@ServiceProvider(group = "test", name = "slow")
public interface SlowService {

    /**
     * Waits {@code millis}. {@code sentNanos} is the caller's {@link System#nanoTime()} when it made the call (the
     * consumer and the provider share a process in these tests); {@code timeoutMillis} how long it waits.
     */
    String work(long sentNanos, long timeoutMillis, int millis);

    /** Counts what ran: every call, and the calls whose caller had stopped waiting before the method started. */
    final class Impl implements SlowService {
        final LongAdder executed = new LongAdder();
        final LongAdder executedForNobody = new LongAdder();

        @Override
        public String work(long sentNanos, long timeoutMillis, int millis) {
            executed.increment();
            if (System.nanoTime() - sentNanos > TimeUnit.MILLISECONDS.toNanos(timeoutMillis)) {
                executedForNobody.increment();
            }
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "ok";
        }
    }
}
