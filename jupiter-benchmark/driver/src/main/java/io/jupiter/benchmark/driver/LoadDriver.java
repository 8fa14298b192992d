package io.jupiter.benchmark.driver;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The one load loop: N threads call a {@link TargetClient} through a warm-up that is not counted, then a measured
 * period. In sync mode each thread makes one blocking call after another. In async mode each thread fires
 * {@value #IN_FLIGHT} calls and then waits for the whole batch, as the original Jupiter benchmark client does.
 * Latency is recorded per call (HdrHistogram, 3 significant digits), from just before the call to its completion.
 */
public final class LoadDriver {

    /** Calls each thread fires before it waits for them, in async mode. */
    public static final int IN_FLIGHT = 80;

    private static final long BATCH_TIMEOUT_SECONDS = 60;

    private final TargetClient client;
    private final boolean async;
    private final int threads;
    private final int intervalSeconds;
    private final Supplier<String> jvmStats;
    private final Recorder latencies = new Recorder(3);
    private final LongAdder completed = new LongAdder();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private volatile boolean measuring;
    private volatile boolean stopped;

    /**
     * @param async           async mode (see the class comment), else sync
     * @param threads         caller threads
     * @param intervalSeconds if above 0, print a soak line every so many seconds of the measured period: throughput
     *                        and p99 of that interval, failures so far, and {@code jvmStats}
     * @param jvmStats        a line about this JVM for the soak lines (heap, direct memory, GC), or {@code null}
     */
    public LoadDriver(TargetClient client, boolean async, int threads, int intervalSeconds,
                      Supplier<String> jvmStats) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads: " + threads + " (expected: >= 1)");
        }
        this.client = client;
        this.async = async;
        this.threads = threads;
        this.intervalSeconds = intervalSeconds;
        this.jvmStats = jvmStats != null ? jvmStats : () -> "";
    }

    /** Runs the warm-up and the measured period, prints the soak lines to {@code out}, and returns the result. */
    public LoadResult run(int warmupSeconds, int seconds, PrintStream out) throws InterruptedException {
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(async ? this::asyncLoop : this::syncLoop, "load-" + i);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
        TimeUnit.SECONDS.sleep(warmupSeconds);
        latencies.reset();
        measuring = true;
        long start = System.nanoTime();
        Histogram histogram = measure(start, seconds, out);
        measuring = false;
        long count = completed.sum();
        double elapsed = (System.nanoTime() - start) / 1e9;
        histogram.add(latencies.getIntervalHistogram());
        stopped = true;
        for (Thread worker : workers) {
            // A worker can be waiting out a batch; it stops at the latest when the batch times out.
            worker.join(TimeUnit.SECONDS.toMillis(BATCH_TIMEOUT_SECONDS + 5));
        }
        Throwable first = firstFailure.get();
        return new LoadResult(count, elapsed, micros(histogram.getValueAtPercentile(50)),
                micros(histogram.getValueAtPercentile(99)), micros(histogram.getValueAtPercentile(99.9)),
                micros(histogram.getMaxValue()), failures.get(), LoadResult.describe(first));
    }

    /** Sleeps through the measured period, printing a soak line per interval; returns the latencies so far. */
    private Histogram measure(long start, int seconds, PrintStream out) throws InterruptedException {
        Histogram total = new Histogram(3);
        if (intervalSeconds <= 0) {
            TimeUnit.SECONDS.sleep(seconds);
            return total;
        }
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        long lastCount = completed.sum();
        long lastTick = start;
        while (System.nanoTime() < end) {
            long next = Math.min(end, lastTick + TimeUnit.SECONDS.toNanos(intervalSeconds));
            TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
            long now = System.nanoTime();
            long count = completed.sum();
            Histogram interval = latencies.getIntervalHistogram();
            total.add(interval);
            out.printf("[soak] t=%ds qps=%d p99=%dus failed=%d %s%n", TimeUnit.NANOSECONDS.toSeconds(now - start),
                    Math.round((count - lastCount) / ((now - lastTick) / 1e9)),
                    micros(interval.getValueAtPercentile(99)), failures.get(), jvmStats.get());
            lastCount = count;
            lastTick = now;
        }
        return total;
    }

    private void syncLoop() {
        while (!stopped) {
            long start = System.nanoTime();
            try {
                client.call();
                record(start);
            } catch (Throwable t) {
                fail(t);
            }
        }
    }

    private void asyncLoop() {
        CompletableFuture<?>[] batch = new CompletableFuture<?>[IN_FLIGHT];
        while (!stopped) {
            for (int i = 0; i < IN_FLIGHT; i++) {
                long start = System.nanoTime();
                CompletableFuture<?> call;
                try {
                    call = client.callAsync();
                } catch (Throwable t) {
                    call = CompletableFuture.failedFuture(t);
                }
                batch[i] = call.whenComplete((value, error) -> {
                    if (error == null) {
                        record(start);
                    } else {
                        fail(error);
                    }
                });
            }
            try {
                CompletableFuture.allOf(batch).get(BATCH_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                // Each failed call was counted by its own callback.
            } catch (TimeoutException e) {
                fail(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void record(long start) {
        if (measuring) {
            latencies.recordValue(System.nanoTime() - start);
            completed.increment();
        }
    }

    private void fail(Throwable t) {
        failures.incrementAndGet();
        firstFailure.compareAndSet(null, t);
    }

    private static long micros(long nanos) {
        return nanos / 1000;
    }
}
