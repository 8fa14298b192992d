package io.jupiter.rpc.overload;

import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.TimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Offers calls to an async {@link SlowService} proxy at a fixed rate whatever the answers (an open loop, as
 * independent users do), and counts per second of the schedule: offered, succeeded, shed (ServerBusy), timed out,
 * other failures, and the succeeded calls' latencies (ms).
 */
final class OpenLoad {

    /** One step of the schedule: {@code rate} calls a second for {@code seconds}. */
    record Step(double rate, int seconds) {
    }

    /** What happened to the calls offered in one second. */
    static final class Second {
        final int index;
        long offered;
        long ok;
        long busy;
        long timedOut;
        long other;
        /** The first failure that was neither ServerBusy nor a timeout, or {@code null}. */
        Throwable firstOther;
        final List<Long> okMillis = new ArrayList<>();

        Second(int index) {
            this.index = index;
        }

        synchronized void record(Throwable error, long millis) {
            if (error == null) {
                ok++;
                okMillis.add(millis);
            } else if (error instanceof ServerBusyException) {
                busy++;
            } else if (error instanceof TimeoutException) {
                timedOut++;
            } else {
                other++;
                if (firstOther == null) {
                    firstOther = error;
                }
            }
        }

        synchronized long p99() {
            if (okMillis.isEmpty()) {
                return 0;
            }
            Long[] sorted = okMillis.toArray(new Long[0]);
            Arrays.sort(sorted);
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)];
        }

        synchronized List<Long> latencies() {
            return new ArrayList<>(okMillis);
        }
    }

    private OpenLoad() {
    }

    /**
     * Runs the schedule; returns one {@link Second} per second of it once every call ended. {@code executedSoFar}
     * reads the provider's count of executions, recorded at the end of each second into {@code executedBySecond}.
     */
    static List<Second> run(SlowService async, long timeoutMillis, int methodMillis, List<Step> schedule,
                            AtomicLongArray executedBySecond, LongSupplier executedSoFar)
            throws Exception {
        List<Second> seconds = new ArrayList<>();
        List<CompletableFuture<?>> futures = new ArrayList<>();
        long start = System.nanoTime();
        long offsetNanos = 0;
        int index = 0;
        for (Step step : schedule) {
            long intervalNanos = (long) (TimeUnit.SECONDS.toNanos(1) / step.rate());
            for (int s = 0; s < step.seconds(); s++, index++) {
                Second second = new Second(index);
                seconds.add(second);
                long secondEnd = offsetNanos + TimeUnit.SECONDS.toNanos(1);
                long next = offsetNanos;
                while (next < secondEnd) {
                    long wait = start + next - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    long sent = System.nanoTime();
                    second.offered++;
                    try {
                        async.work(sent, timeoutMillis, methodMillis);
                        futures.add(InvokeFutureContext.future(String.class).whenComplete((v, e) ->
                                second.record(e, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent))));
                    } catch (RuntimeException e) {
                        second.record(e, 0);
                    }
                    next += intervalNanos;
                }
                offsetNanos = secondEnd;
                if (executedBySecond != null && index < executedBySecond.length()) {
                    long wait = start + offsetNanos - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    executedBySecond.set(index, executedSoFar.getAsLong());
                }
            }
        }
        CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])).handle((v, e) -> null)
                .get(timeoutMillis * 4 + 60_000, TimeUnit.MILLISECONDS);
        return seconds;
    }

    /** The 99th percentile of the succeeded calls' latencies over {@code seconds}, in ms. */
    static long p99(List<Second> seconds) {
        List<Long> all = new ArrayList<>();
        for (Second second : seconds) {
            all.addAll(second.latencies());
        }
        if (all.isEmpty()) {
            return 0;
        }
        all.sort(null);
        return all.get(Math.min(all.size() - 1, (int) Math.ceil(all.size() * 0.99) - 1));
    }
}
