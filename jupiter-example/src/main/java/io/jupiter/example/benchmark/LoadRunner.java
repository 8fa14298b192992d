package io.jupiter.example.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Drives a {@link LoadTarget} from N threads: a warm-up that is not counted, then a measured period, then a report
 * line {@code Request count: N, time: S second, qps: Q} and latency percentiles. In future mode each thread keeps
 * {@value #IN_FLIGHT} calls in flight and waits for the whole batch, like the original's benchmark client.
 */
final class LoadRunner {

    static final int IN_FLIGHT = 80;

    private final LoadTarget target;
    private final boolean future;
    private final int threads;
    private final Recorder latencies = new Recorder(3);
    private final LongAdder completed = new LongAdder();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private volatile boolean measuring;
    private volatile boolean stopped;

    private final int intervalSeconds;

    /**
     * @param intervalSeconds if above 0, print a soak line every so many seconds of the measured period: throughput
     *                        and p99 of that interval, and heap, direct memory and GC of this JVM
     */
    LoadRunner(LoadTarget target, String mode, int threads, int intervalSeconds) {
        this.target = target;
        this.future = mode.equals("future");
        this.threads = threads;
        this.intervalSeconds = intervalSeconds;
    }

    /** Runs the load and prints the report; returns the number of failed calls. */
    long run(int warmupSeconds, int seconds) throws InterruptedException {
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(future ? this::futureLoop : this::syncLoop, "benchmark-" + i);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
        TimeUnit.SECONDS.sleep(warmupSeconds);
        latencies.reset();
        measuring = true;
        long start = System.nanoTime();
        Histogram histogram = measure(start, seconds);
        measuring = false;
        long count = completed.sum();
        double elapsed = (System.nanoTime() - start) / 1e9;
        histogram.add(latencies.getIntervalHistogram());
        stopped = true;
        for (Thread worker : workers) {
            worker.join(TimeUnit.SECONDS.toMillis(30));
        }
        System.out.printf("Request count: %d, time: %d second, qps: %d%n", count, Math.round(elapsed),
                Math.round(count / elapsed));
        System.out.printf("Latency (us): p50=%d, p99=%d, p999=%d, max=%d%n",
                histogram.getValueAtPercentile(50) / 1000, histogram.getValueAtPercentile(99) / 1000,
                histogram.getValueAtPercentile(99.9) / 1000, histogram.getMaxValue() / 1000);
        long failed = failures.get();
        if (failed > 0) {
            System.out.println("Failed calls: " + failed + ", first: " + firstFailure.get());
        }
        return failed;
    }

    /** Sleeps through the measured period, printing a soak line per interval; returns the latencies so far. */
    private Histogram measure(long start, int seconds) throws InterruptedException {
        Histogram total = new Histogram(3);
        if (intervalSeconds <= 0) {
            TimeUnit.SECONDS.sleep(seconds);
            return total;
        }
        JvmStats jvm = new JvmStats();
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
            System.out.printf("[soak] t=%ds qps=%d p99=%dus failed=%d %s%n",
                    TimeUnit.NANOSECONDS.toSeconds(now - start), Math.round((count - lastCount) / ((now - lastTick) / 1e9)),
                    interval.getValueAtPercentile(99) / 1000, failures.get(), jvm.line());
            lastCount = count;
            lastTick = now;
        }
        return total;
    }

    private void syncLoop() {
        while (!stopped) {
            long start = System.nanoTime();
            try {
                target.call();
                record(start);
            } catch (Throwable t) {
                fail(t);
            }
        }
    }

    private void futureLoop() {
        CompletableFuture<?>[] batch = new CompletableFuture<?>[IN_FLIGHT];
        while (!stopped) {
            for (int i = 0; i < IN_FLIGHT; i++) {
                long start = System.nanoTime();
                batch[i] = target.callAsync().whenComplete((value, error) -> {
                    if (error == null) {
                        record(start);
                    } else {
                        fail(error);
                    }
                });
            }
            try {
                CompletableFuture.allOf(batch).get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                // Each failed call was counted by its own callback.
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
}
