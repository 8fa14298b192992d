package io.jupiter.benchmark.chaos;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.testkit.FaultProxy;
import io.jupiter.testkit.FaultProxy.Direction;
import io.jupiter.transport.TransportConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Issue #26's scenario on one machine: two providers, each behind a {@link FaultProxy}; one client, 8 threads calling
 * an idempotent method with {@code failOver(2)}, {@code timeoutMillis(1000)} and {@code connections(2)}, defaults
 * otherwise; faults scripted on a 60-second timeline (after a 5 s warm-up). Prints, per second, the calls that
 * succeeded and failed and the p99 and worst latency of the calls that ended in that second, then a summary.
 *
 * <pre>
 *   java -cp jupiter-benchmark.jar io.jupiter.benchmark.chaos.ChaosScenario [--threads 8] [--keepalive-millis N]
 * </pre>
 *
 * {@code --keepalive-millis 0} turns the client's keepalive pings off (the behaviour before issue #26). Everything
 * runs in this JVM on 127.0.0.1; the run is bounded (about 65 s) whatever happens.
 */
public final class ChaosScenario {

    private static final int SECONDS = 60;
    private static final int WARM_UP_SECONDS = 5;

    /**
     * One scripted step: at {@code second}, {@code action}, shown as {@code what} while it lasts ({@code lasting}) or
     * in its own second only.
     */
    private record Step(int second, String what, boolean lasting, Runnable action) {
    }

    /** The provider's side of {@link KeyValue}. */
    private static final class Values implements KeyValue {
        @Override
        public String get(String key) {
            return key;
        }
    }

    private ChaosScenario() {
    }

    public static void main(String[] args) throws Exception {
        int threads = 8;
        long keepaliveMillis = TransportConfig.defaults().keepaliveTimeoutMillis();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--keepalive-millis" -> keepaliveMillis = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (expected: --threads N, --keepalive-millis N)");
            }
        }
        run(threads, keepaliveMillis, System.out);
    }

    static void run(int threads, long keepaliveMillis, PrintStream out) throws Exception {
        List<AutoCloseable> toClose = new ArrayList<>();
        try {
            FaultProxy a = FaultProxy.start(provider(toClose).localAddress().getPort());
            toClose.add(a);
            FaultProxy b = FaultProxy.start(provider(toClose).localAddress().getPort());
            toClose.add(b);
            JupiterClient client = JupiterClient.builder()
                    .transportConfig(TransportConfig.builder().keepaliveTimeoutMillis(keepaliveMillis).build())
                    .build();
            toClose.add(client);
            KeyValue kv = client.proxy(KeyValue.class).address("127.0.0.1:" + a.port() + ",127.0.0.1:" + b.port())
                    .cluster(ClusterStrategy.failOver(2)).idempotent("get").timeoutMillis(1_000).connections(2)
                    .build();
            List<Step> timeline = List.of(
                    new Step(5, "A half-open", true, a::blackhole),
                    new Step(15, "A healed", false, a::healthy),
                    new Step(20, "A +300 ms", true, () -> a.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(300))),
                    new Step(25, "A healed", false, a::healthy),
                    new Step(30, "A, B: every connection reset", false, () -> {
                        a.resetOpenConnections();
                        b.resetOpenConnections();
                    }),
                    new Step(35, "all down", true, () -> {
                        a.refuse().reset();
                        b.refuse().reset();
                    }),
                    new Step(45, "all back", false, () -> {
                        a.healthy();
                        b.healthy();
                    }));
            out.printf(Locale.ROOT, "chaos: 2 providers behind fault proxies, %d threads, failOver(2), idempotent, "
                    + "timeout 1000 ms, 2 connections each, keepalive %s%n", threads,
                    keepaliveMillis == 0 ? "off" : keepaliveMillis + " ms");
            Load load = new Load(kv, threads);
            load.start();
            sleepUntil(load.startNanos + TimeUnit.SECONDS.toNanos(WARM_UP_SECONDS));
            load.measure(System.nanoTime());
            out.println();
            out.println("| s | fault | ok | failed | p99 ms | max ms |");
            out.println("|---:|---|---:|---:|---:|---:|");
            int next = 0;
            String lasting = "";
            for (int second = 0; second < SECONDS; second++) {
                String shown = lasting;
                while (next < timeline.size() && timeline.get(next).second() == second) {
                    Step step = timeline.get(next++);
                    step.action().run();
                    shown = step.what();
                    lasting = step.lasting() ? step.what() : "";
                }
                sleepUntil(load.measureStart + TimeUnit.SECONDS.toNanos(second + 1L));
                out.println(load.row(second, shown));
            }
            load.stop();
            out.println();
            out.println(load.summary());
        } finally {
            for (int i = toClose.size() - 1; i >= 0; i--) {
                toClose.get(i).close();
            }
        }
    }

    private static JupiterServer provider(List<AutoCloseable> toClose) {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        toClose.add(server);
        server.register(new Values());
        server.start();
        return server;
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    /** The callers and what they saw, per second of the timeline. */
    private static final class Load {
        private final KeyValue kv;
        private final Thread[] callers;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Histogram[] latency = new Histogram[SECONDS + 1];
        private final AtomicLongArray ok = new AtomicLongArray(SECONDS + 1);
        private final AtomicLongArray failed = new AtomicLongArray(SECONDS + 1);
        private final long startNanos = System.nanoTime();
        private volatile long measureStart = Long.MAX_VALUE;

        Load(KeyValue kv, int threads) {
            this.kv = kv;
            for (int i = 0; i < latency.length; i++) {
                latency[i] = new ConcurrentHistogram(TimeUnit.SECONDS.toMicros(10), 2);
            }
            this.callers = new Thread[threads];
            for (int i = 0; i < threads; i++) {
                callers[i] = new Thread(this::call, "chaos-caller-" + i);
                callers[i].setDaemon(true);
            }
        }

        void start() {
            for (Thread caller : callers) {
                caller.start();
            }
        }

        void measure(long from) {
            measureStart = from;
        }

        private void call() {
            String key = Thread.currentThread().getName();
            // Bounded by the timeline: the main thread stops it after SECONDS.
            while (running.get()) {
                long start = System.nanoTime();
                boolean success;
                try {
                    kv.get(key);
                    success = true;
                } catch (RpcException e) {
                    success = false;
                }
                long end = System.nanoTime();
                long slot = (end - measureStart) / TimeUnit.SECONDS.toNanos(1);
                if (end - measureStart < 0 || slot > SECONDS) {
                    continue;
                }
                int second = (int) slot;
                if (success) {
                    ok.incrementAndGet(second);
                    latency[second].recordValue(Math.min(TimeUnit.NANOSECONDS.toMicros(end - start),
                            TimeUnit.SECONDS.toMicros(10)));
                } else {
                    failed.incrementAndGet(second);
                    pause(); // a real caller backs off a little rather than spin on a failing call
                }
            }
        }

        String row(int second, String phase) {
            Histogram h = latency[second];
            return String.format(Locale.ROOT, "| %d | %s | %,d | %,d | %s | %s |", second, phase, ok.get(second),
                    failed.get(second), millis(h.getTotalCount() == 0 ? -1 : h.getValueAtPercentile(99)),
                    millis(h.getTotalCount() == 0 ? -1 : h.getMaxValue()));
        }

        String summary() {
            long total = 0;
            long failures = 0;
            for (int i = 0; i < SECONDS; i++) {
                total += ok.get(i);
                failures += failed.get(i);
            }
            return String.format(Locale.ROOT, "total: %,d calls ok, %,d failed (%.3f %%) in %d s", total, failures,
                    total + failures == 0 ? 0.0 : 100.0 * failures / (total + failures), SECONDS);
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread caller : callers) {
                caller.join(5_000);
            }
        }

        private static String millis(long micros) {
            return micros < 0 ? "-" : String.format(Locale.ROOT, "%.1f", micros / 1000.0);
        }

        private static void pause() {
            try {
                TimeUnit.MILLISECONDS.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
