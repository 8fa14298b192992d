package io.jupiter.rpc.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.balance.OutlierEjection;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.cluster.RetryBudget;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.testkit.Await;
import io.jupiter.transport.TransportConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Outlier ejection against two real providers, one of them behind a fault proxy that blackholes or resets its
 * connections: the failing provider leaves load balancing, no call fails meanwhile (fail-over), and it comes back
 * by itself once the fault heals.
 */
class OutlierEjectionTest {

    /**
     * The timeout of the probation test's calls: what tells a call that waited on the dead provider from one answered
     * at once, so far above a loaded machine's stalls that no call to the live provider is taken for one.
     */
    private static final long PROBE_TIMEOUT_MILLIS = 3_000;

    private final TwoProviders providers = new TwoProviders();

    @AfterEach
    void close() {
        providers.close();
    }

    @Test
    void aBlackholedProviderIsEjectedThenReturnsWhenItHeals() throws Exception {
        TailService tail = providers.proxy().loadBalancer(LoadBalancerType.ROUND_ROBIN)
                .cluster(ClusterStrategy.failOver(2)).idempotent("who").timeoutMillis(1_000)
                // Ejected for 10 s: the 40 calls below must all run before b returns, however slow the machine (a
                // return within them would send one to b first); a 1 s timeout, so a call to a is not late.
                .outlierEjection(OutlierEjection.of(3, 10_000, 20_000, 50)).build();
        awaitBothServe(providers, tail);

        providers.proxyB.blackhole();
        try (CallLoad load = new CallLoad(4, 100_000, tail::who)) {
            Await.until("provider b is ejected", Duration.ofSeconds(15),
                    () -> providers.meter(MetricNames.OUTLIER_EJECTION) >= 1);
            load.close();
            assertThat(load.failed.get()).as("failures %s", load.failures()).isZero();
        }
        // Out of rotation: every call goes to a, none waits for b's timeout first (one request per call).
        long sentBefore = providers.requestsSent();
        for (int i = 0; i < 40; i++) {
            assertThat(tail.who()).isEqualTo("a");
        }
        assertThat(providers.requestsSent() - sentBefore).isEqualTo(40);

        providers.proxyB.healthy();
        Await.until("provider b serves calls again", Duration.ofSeconds(60), () -> "b".equals(tail.who()));
        assertThat(providers.meter(MetricNames.OUTLIER_RETURN)).isGreaterThanOrEqualTo(1);
    }

    @Test
    void aProviderWhoseConnectionsAreResetIsEjectedAndReturns() throws Exception {
        TailService tail = providers.proxy().loadBalancer(LoadBalancerType.ROUND_ROBIN)
                .cluster(ClusterStrategy.failOver(2)).idempotent("whoAfter").timeoutMillis(2_000)
                .outlierEjection(OutlierEjection.of(2, 2_000, 4_000, 50)).build();
        try (CallLoad load = new CallLoad(4, 100_000, () -> whoAfter(tail, 20))) {
            Await.until("both providers serve", Duration.ofSeconds(60),
                    () -> load.servedBy("a") > 5 && load.servedBy("b") > 5);
            providers.proxyB.reset();
            Await.until("provider b is ejected", Duration.ofSeconds(60),
                    () -> providers.meter(MetricNames.OUTLIER_EJECTION) >= 1);
            providers.proxyB.healthy();
            long servedByB = load.servedBy("b");
            Await.until("provider b serves calls again", Duration.ofSeconds(60),
                    () -> load.servedBy("b") > servedByB + 5);
            load.close();
            assertThat(providers.meter(MetricNames.OUTLIER_RETURN)).isGreaterThanOrEqualTo(1);
            assertThat(load.failed.get()).as("failures %s", load.failures()).isZero();
        }
    }

    @Test
    void neverEjectsEveryProvider() throws Exception {
        // Ejected for 60 s: the ten calls below end long before, however slow the machine, so a second ejection
        // can only be the bug (every provider out at once), not a return and a new ejection.
        // Both serve first through a proxy that ejects nothing: with one failure enough to eject, a warm-up call that
        // a loaded machine made later than 100 ms would eject a healthy provider for the whole test.
        awaitBothServe(providers, providers.proxy().idempotent("who").timeoutMillis(10_000).build());
        TailService tail = providers.proxy().cluster(ClusterStrategy.failOver(1)).idempotent("who")
                .timeoutMillis(100).outlierEjection(OutlierEjection.of(1, 60_000, 60_000, 100)).build();
        providers.proxyA.blackhole();
        providers.proxyB.blackhole();
        for (int i = 0; i < 10; i++) {
            assertThatThrownBy(tail::who).isInstanceOf(TimeoutException.class);
        }
        // 100 % allowed, yet one of the two stays in: at most one ejection within the 60 s ejection time.
        assertThat(providers.meter(MetricNames.OUTLIER_EJECTION)).isEqualTo(1);
    }

    @Test
    void onProbationAProviderStillDeadGetsOneCallPerReturn() throws Exception {
        // The client's keepalive off: it would close b's blackholed connection after 4.5 s of silence, after which
        // b's outages are reconnects through the proxy rather than probes that time out (seen: no further ejection
        // for 90 s once the 3 s probes let it act). How keepalive finds a dead link is KeepaliveTest's subject.
        TransportConfig noKeepalive = TransportConfig.builder().threadNamePrefix("jupiter-connector")
                .readerIdleMillis(0).keepaliveTimeoutMillis(0).build();
        try (TwoProviders withoutKeepalive = new TwoProviders(JupiterClient.builder().transportConfig(noKeepalive)
                .build())) {
            probesOneCallPerReturn(withoutKeepalive);
        }
    }

    private static void probesOneCallPerReturn(TwoProviders providers) throws Exception {
        TailService tail = providers.proxy().loadBalancer(LoadBalancerType.ROUND_ROBIN)
                .cluster(ClusterStrategy.failOver(1)).idempotent("who").timeoutMillis(PROBE_TIMEOUT_MILLIS)
                .outlierEjection(OutlierEjection.of(1, 500, 500, 50).withoutFailureRate())
                .retryBudget(RetryBudget.unlimited()).build();
        awaitBothServe(providers, tail);
        providers.proxyB.blackhole();

        List<long[]> calls = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger wrong = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                for (int n = 0; n < 20_000 && !stop.get(); n++) {
                    long start = System.nanoTime();
                    try {
                        if (!"a".equals(tail.who())) {
                            wrong.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        wrong.incrementAndGet();
                    }
                    calls.add(new long[] {start, System.nanoTime() - start});
                }
            }, "probation-load-" + i);
            t.start();
            threads.add(t);
        }
        try {
            Await.until("provider b is ejected", Duration.ofSeconds(60),
                    () -> providers.meter(MetricNames.OUTLIER_EJECTION) >= 1);
            long from = System.nanoTime();
            long returnsFrom = providers.meter(MetricNames.OUTLIER_RETURN);
            long ejections = providers.meter(MetricNames.OUTLIER_EJECTION);
            // Three returns, each probed by one call that times out on b and ejects it again.
            Await.until("three more ejections", Duration.ofSeconds(90),
                    () -> providers.meter(MetricNames.OUTLIER_EJECTION) >= ejections + 3);
            long to = System.nanoTime();
            long returns = providers.meter(MetricNames.OUTLIER_RETURN) - returnsFrom;
            long slow;
            synchronized (calls) {
                slow = calls.stream().filter(c -> c[0] - from >= 0 && c[0] - to < 0)
                        .filter(c -> c[1] >= TimeUnit.MILLISECONDS.toNanos(PROBE_TIMEOUT_MILLIS - 50)).count();
            }
            // Every call that went to b waited its 3 s timeout (the others take about a millisecond, and even a
            // starved machine does not stall a call to a for 3 s): one per return, not one per thread.
            assertThat(returns).isGreaterThanOrEqualTo(3);
            assertThat(slow).as("calls that waited on b, %d returns", returns).isBetween(1L, returns + 1);
            assertThat(wrong.get()).as("calls failed or answered by b").isZero();
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join(10_000);
            }
        }
        providers.proxyB.healthy();
        Await.until("provider b serves calls again", Duration.ofSeconds(60), () -> "b".equals(tail.who()));
    }

    @Test
    void settingsAreChecked() {
        assertThatThrownBy(() -> OutlierEjection.of(0, 1_000, 1_000, 50))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OutlierEjection.of(5, 2_000, 1_000, 50))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxEjectionMillis");
        assertThatThrownBy(() -> OutlierEjection.of(5, 1_000, 1_000, 101))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(OutlierEjection.defaults().consecutiveFailures()).isEqualTo(5);
        assertThat(OutlierEjection.off().enabled()).isFalse();
    }

    private static void awaitBothServe(TwoProviders providers, TailService tail) {
        Await.until("both providers serve", Duration.ofSeconds(60), () -> {
            tail.who();
            return providers.a.calls.get() > 2 && providers.b.calls.get() > 2;
        });
    }

    private static String whoAfter(TailService tail, long millis) {
        try {
            return tail.whoAfter(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
