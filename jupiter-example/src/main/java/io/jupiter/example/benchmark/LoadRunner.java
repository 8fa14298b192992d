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

    LoadRunner(LoadTarget target, String mode, int threads) {
        this.target = target;
        this.future = mode.equals("future");
        this.threads = threads;
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
        TimeUnit.SECONDS.sleep(seconds);
        measuring = false;
        long count = completed.sum();
        double elapsed = (System.nanoTime() - start) / 1e9;
        Histogram histogram = latencies.getIntervalHistogram();
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
