package io.jupiter.rpc.tail;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy.Direction;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The least-latency balancer against two real providers, one of which the fault proxy slows down by 300 ms: the slow
 * one gets few calls within seconds, and its share back once it is fast again. No call fails either way.
 */
class LeastLatencyBalancingTest {

    private final TwoProviders providers = new TwoProviders();

    @AfterEach
    void close() {
        providers.close();
    }

    @Test
    void aSlowProviderLosesItsShareAndGetsItBackWhenItRecovers() throws Exception {
        TailService tail = providers.proxy().loadBalancer(LoadBalancerType.LEAST_LATENCY).connections(2)
                .timeoutMillis(5_000).build();
        try (CallLoad load = new CallLoad(4, 2_000_000, tail::who)) {
            Shares shares = new Shares(load);
            Await.until("both providers serve", Duration.ofSeconds(10), () -> shares.ofB(50) > 0.2);

            providers.proxyB.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(300));
            Await.until("b gets under 10 % of the calls", Duration.ofSeconds(15), () -> shares.ofB(200) < 0.10);

            providers.proxyB.healthy();
            Await.until("b gets at least 30 % of the calls again", Duration.ofSeconds(20),
                    () -> shares.ofB(200) >= 0.30);
            load.close();
            assertThat(load.failed.get()).as("failures %s", load.failures()).isZero();
        }
    }

    /** Provider b's share of the calls answered since the previous window that held enough of them. */
    private static final class Shares {

        private final CallLoad load;
        private long a;
        private long b;

        Shares(CallLoad load) {
            this.load = load;
        }

        /** B's share since the last window once {@code minCalls} were answered; NaN (fails every test) before. */
        double ofB(long minCalls) {
            long nowA = load.servedBy("a");
            long nowB = load.servedBy("b");
            long calls = nowA - a + nowB - b;
            if (calls < minCalls) {
                return Double.NaN;
            }
            double share = (nowB - b) / (double) calls;
            a = nowA;
            b = nowB;
            return share;
        }
    }
}
