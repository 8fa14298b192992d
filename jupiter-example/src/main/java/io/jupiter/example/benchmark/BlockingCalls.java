package io.jupiter.example.benchmark;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceProvider;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * Providers whose methods block: a method that sleeps, many callers at once, on the built-in pool, a large pool,
 * or virtual threads (JDK 21+). Server and client in this JVM on 127.0.0.1; prints one Markdown row per mode.
 *
 * <pre>
 * java -cp jupiter-example.jar io.jupiter.example.benchmark.BlockingCalls [--modes pool,pool-1000,virtual]
 *      [--callers 1000] [--sleep-millis 10] [--seconds 10]
 * </pre>
 */
public final class BlockingCalls {

    /** A method that blocks for as long as asked. */
    @ServiceProvider(group = "bench", name = "blocking")
    public interface Blocking {
        String sleep(int millis);
    }

    /** Sleeps on its thread, as a method waiting for a database would. */
    public static final class BlockingImpl implements Blocking {
        @Override
        public String sleep(int millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "ok";
        }
    }

    private BlockingCalls() {
    }

    public static void main(String[] args) throws Exception {
        String modes = "pool,pool-1000,virtual";
        int callers = 1_000;
        int sleepMillis = 10;
        int seconds = 10;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--modes" -> modes = args[i + 1];
                case "--callers" -> callers = Integer.parseInt(args[i + 1]);
                case "--sleep-millis" -> sleepMillis = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown flag " + args[i]);
            }
        }
        System.out.printf(
                "%d callers, a method sleeping %d ms, %d s measured after %d s warm-up; Java %s, %d cores%n%n",
                callers, sleepMillis, seconds, 3, Runtime.version(), Runtime.getRuntime().availableProcessors());
        System.out.println("| provider | calls/s | p50 ms | p99 ms | failed | live threads (peak) | RSS MB |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (String mode : modes.split(",")) {
            run(mode, callers, sleepMillis, seconds);
        }
    }

    private static void run(String mode, int callers, int sleepMillis, int seconds) throws Exception {
        JupiterServer.Builder builder = JupiterServer.builder().host("127.0.0.1").port(0)
                .queueCapacity(Math.max(8192, 2 * callers));
        switch (mode) {
            case "pool" -> { } // the defaults: max(4, 2 x cores) threads
            case "pool-1000" -> builder.providerThreads(1_000);
            case "virtual" -> builder.virtualThreads();
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (JupiterServer server = builder.build();
             // The client keeps its callbacks on its consumer threads in every mode: only the provider differs.
             JupiterClient client = JupiterClient.builder().maxInFlight(2 * callers).adaptiveCallbacks(false)
                     .build()) {
            server.register(new BlockingImpl());
            InetSocketAddress address = server.start();
            Blocking blocking = client.proxy(Blocking.class).address("127.0.0.1", address.getPort())
                    .invokeType(InvokeType.ASYNC).timeoutMillis(60_000).build();
            Semaphore inFlight = new Semaphore(callers);
            Recorder latency = new Recorder(3);
            LongAdder done = new LongAdder();
            LongAdder failed = new LongAdder();
            long warmUpEnds = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            long ends = warmUpEnds + TimeUnit.SECONDS.toNanos(seconds);
            threads.resetPeakThreadCount();
            boolean measuring = false;
            long measuredFrom = 0;
            while (System.nanoTime() < ends) {
                if (!measuring && System.nanoTime() >= warmUpEnds) {
                    measuring = true;
                    latency.reset();
                    done.reset();
                    failed.reset();
                    threads.resetPeakThreadCount();
                    measuredFrom = System.nanoTime();
                }
                if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                long started = System.nanoTime();
                blocking.sleep(sleepMillis);
                InvokeFuture<String> future = InvokeFutureContext.future(String.class);
                future.whenComplete((value, error) -> {
                    if (error == null) {
                        latency.recordValue(System.nanoTime() - started);
                        done.increment();
                    } else {
                        failed.increment();
                    }
                    inFlight.release();
                });
            }
            double elapsed = (System.nanoTime() - measuredFrom) / 1e9;
            var histogram = latency.getIntervalHistogram();
            System.out.printf("| %s | %,.0f | %.1f | %.1f | %d | %d | %d |%n", mode, done.sum() / elapsed,
                    histogram.getValueAtPercentile(50) / 1e6, histogram.getValueAtPercentile(99) / 1e6,
                    failed.sum(), threads.getPeakThreadCount(), rssMegabytes());
            inFlight.acquire(callers); // let the calls in flight end before the server closes
        }
    }

    private static long rssMegabytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        return -1;
    }
}
