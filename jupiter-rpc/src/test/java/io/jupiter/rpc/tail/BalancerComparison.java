package io.jupiter.rpc.tail;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.balance.OutlierEjection;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.cluster.RetryBudget;
import io.jupiter.testkit.FaultProxy.Direction;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;

/**
 * A bounded measurement, not part of the test set (its name does not end in {@code Test}): issue #26's scenario (two
 * providers behind fault proxies, 8 threads, fail-over(2), idempotent, 1 s timeout, 2 connections) for round robin
 * and least latency, twice each in turn (the first run also warms the JIT); one provider's answers are held back 300 ms
 * for 5 s. Prints calls/s, p99 and the slow provider's share of the calls per phase. Run it with
 * {@code mvn -B -q -pl jupiter-rpc -am verify -Dtest=BalancerComparison -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class BalancerComparison {

    private static final int THREADS = 8;

    @Test
    void roundRobinAgainstLatencyEwma() throws Exception {
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%-12s %-22s %10s %10s %8s%n",
                "balancer", "phase", "calls/s", "p99 ms", "b share"));
        LoadBalancerType[] runs = {LoadBalancerType.ROUND_ROBIN, LoadBalancerType.LEAST_LATENCY,
                LoadBalancerType.ROUND_ROBIN, LoadBalancerType.LEAST_LATENCY};
        for (LoadBalancerType type : runs) {
            try (TwoProviders providers = new TwoProviders()) {
                TailService tail = providers.proxy().loadBalancer(type).cluster(ClusterStrategy.failOver(2))
                        .idempotent("who").timeoutMillis(1_000).connections(2).build();
                Recorder latencies = new Recorder(3);
                AtomicLong failed = new AtomicLong();
                try (CallLoad load = new CallLoad(THREADS, Long.MAX_VALUE, () -> {
                    long start = System.nanoTime();
                    try {
                        return tail.who();
                    } finally {
                        latencies.recordValue(System.nanoTime() - start);
                    }
                })) {
                    phase(table, type, "warm-up 3 s", load, latencies, providers, 3);
                    phase(table, type, "healthy 3 s", load, latencies, providers, 3);
                    providers.proxyB.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(300));
                    phase(table, type, "b +300 ms, 1st s", load, latencies, providers, 1);
                    phase(table, type, "b +300 ms, next 4 s", load, latencies, providers, 4);
                    providers.proxyB.healthy();
                    for (int s = 1; s <= 10; s += 3) {
                        phase(table, type, "healed, s " + s + "-" + (s + 2), load, latencies, providers, 3);
                    }
                    load.close();
                    failed.set(load.failed.get());
                }
                assertThat(failed.get()).isZero();
            }
        }
        System.out.print(table);
    }

    /**
     * Issue #26's half-open link: one provider blackholed for 10 s, with the defaults (least latency, outlier
     * ejection, retry budget) against round robin without ejection or budget (as before). Per second: calls/s, p99,
     * failed calls. Without the keepalive of item 1, which is another change.
     */
    @Test
    void halfOpenLinkWithTheDefaultsAndWithout() throws Exception {
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%-10s %-16s %10s %10s %8s%n",
                "settings", "phase", "calls/s", "p99 ms", "failed"));
        for (boolean defaults : new boolean[] {false, true}) {
            try (TwoProviders providers = new TwoProviders()) {
                ProxyBuilder<TailService> builder = providers.proxy().cluster(ClusterStrategy.failOver(2))
                        .idempotent("who").timeoutMillis(1_000).connections(2);
                if (!defaults) {
                    builder.loadBalancer(LoadBalancerType.ROUND_ROBIN).outlierEjection(OutlierEjection.off())
                            .retryBudget(RetryBudget.unlimited());
                }
                TailService tail = builder.build();
                Recorder latencies = new Recorder(3);
                try (CallLoad load = new CallLoad(THREADS, Long.MAX_VALUE, () -> {
                    long start = System.nanoTime();
                    try {
                        return tail.who();
                    } finally {
                        latencies.recordValue(System.nanoTime() - start);
                    }
                })) {
                    String name = defaults ? "defaults" : "before";
                    second(table, name, "warm-up 3 s", load, latencies, 3);
                    second(table, name, "healthy", load, latencies, 1);
                    providers.proxyB.blackhole();
                    for (int s = 1; s <= 10; s++) {
                        second(table, name, "blackhole, s " + s, load, latencies, 1);
                    }
                    providers.proxyB.healthy();
                    second(table, name, "healed, s 1", load, latencies, 1);
                    load.close();
                }
            }
        }
        System.out.print(table);
    }

    private static void second(StringBuilder table, String settings, String name, CallLoad load, Recorder latencies,
                               int seconds) throws InterruptedException {
        long calls0 = load.servedBy("a") + load.servedBy("b");
        long failed0 = load.failed.get();
        latencies.getIntervalHistogram();
        long start = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds)); // a measurement window, not a synchronisation
        double elapsed = (System.nanoTime() - start) / 1e9;
        long calls = load.servedBy("a") + load.servedBy("b") - calls0;
        table.append(String.format(Locale.ROOT, "%-10s %-16s %10.0f %10.1f %8d%n", settings, name, calls / elapsed,
                latencies.getIntervalHistogram().getValueAtPercentile(99) / 1e6, load.failed.get() - failed0));
    }

    private static void phase(StringBuilder table, LoadBalancerType type, String name, CallLoad load,
                              Recorder latencies, TwoProviders providers, int seconds) throws InterruptedException {
        long a0 = load.servedBy("a");
        long b0 = load.servedBy("b");
        latencies.getIntervalHistogram();
        long start = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds)); // a measurement window, not a synchronisation
        double elapsed = (System.nanoTime() - start) / 1e9;
        long a = load.servedBy("a") - a0;
        long b = load.servedBy("b") - b0;
        double p99 = latencies.getIntervalHistogram().getValueAtPercentile(99) / 1e6;
        table.append(String.format(Locale.ROOT, "%-12s %-22s %10.0f %10.1f %7.1f%%%n", type, name,
                (a + b) / elapsed, p99, a + b == 0 ? 0 : 100.0 * b / (a + b)));
    }
}
