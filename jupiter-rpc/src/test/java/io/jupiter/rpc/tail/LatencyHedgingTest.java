package io.jupiter.rpc.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.cluster.HedgingPolicy;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy.Direction;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hedging whose delay follows the method's latency ({@link HedgingPolicy#afterLatencyPercentile}), against two real
 * providers behind fault proxies. What shows the delay in use is who answers: a call whose first attempt waits on a
 * provider 1 s late is answered by the other provider when the delay is the learned percentile of a fast method,
 * by the late one when it is still the (longer) fallback; and a method slower than the fallback stops being hedged
 * once its own latency is known.
 */
class LatencyHedgingTest {

    private final TwoProviders providers = new TwoProviders();

    @AfterEach
    void close() {
        providers.close();
    }

    @Test
    void onceTheMethodsLatencyIsKnownASlowProvidersCallsAreHedgedAtItsPercentile() {
        HedgingPolicy p90 = HedgingPolicy.afterLatencyPercentile(90, 10, 3_000, 2);
        TailService learned = providers.proxy().loadBalancer(LoadBalancerType.ROUND_ROBIN).idempotent("who")
                .hedging(p90).timeoutMillis(5_000).build();
        for (int i = 0; i < 150; i++) { // 150 fast attempts: more than the 100 the percentile needs
            learned.who();
        }
        TailService fresh = providers.proxy().loadBalancer(LoadBalancerType.ROUND_ROBIN).idempotent("who")
                .hedging(p90).timeoutMillis(5_000).build();
        Await.until("the fresh proxy reaches both providers", Duration.ofSeconds(10),
                () -> Set.of("a", "b").equals(answers(fresh, 4)));

        // 1 s late: far above the learned delay, so a loaded machine's stall does not let a win.
        providers.proxyA.delay(Direction.TARGET_TO_CLIENT, Duration.ofSeconds(1));
        long sentBefore = providers.requestsSent();
        for (int i = 0; i < 20; i++) {
            assertThat(learned.who()).as("call %d: a's answer comes 1 s late, the hedge at the p90 wins", i)
                    .isEqualTo("b");
        }
        // Round robin sends about half the first attempts to a; each of those is hedged on b.
        assertThat(providers.requestsSent() - sentBefore).isGreaterThan(25);
        // Without samples the fallback (3 s) holds: the first attempts sent to a (one in two) wait for a's late answer.
        assertThat(answers(fresh, 4)).contains("a");
    }

    @Test
    void aMethodSlowerThanTheFallbackStopsBeingHedgedOnceItsLatencyIsKnown() throws Exception {
        TailService tail = providers.proxy().loadBalancer(LoadBalancerType.ROUND_ROBIN).idempotent("whoAfter")
                .hedging(HedgingPolicy.afterLatencyPercentile(99, 10, 10, 2)).timeoutMillis(3_000).build();
        long sentBefore = providers.requestsSent();
        for (int i = 0; i < 60; i++) {
            tail.whoAfter(40);
        }
        long warmUpRequests = providers.requestsSent() - sentBefore;
        // 40 ms calls, 10 ms fallback: while fewer than 100 attempts were seen, nearly every call is hedged.
        assertThat(warmUpRequests).isGreaterThan(90);

        sentBefore = providers.requestsSent();
        for (int i = 0; i < 30; i++) {
            tail.whoAfter(40);
        }
        // Now the delay is the method's p99 (40 ms and up): hedges are the exception (about 1 % of the calls).
        assertThat(providers.requestsSent() - sentBefore).isLessThan(45);
    }

    @Test
    void settingsAreChecked() {
        assertThatThrownBy(() -> HedgingPolicy.afterLatencyPercentile(40)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("percentile");
        assertThatThrownBy(() -> HedgingPolicy.afterLatencyPercentile(100))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HedgingPolicy.afterLatencyPercentile(95, 0, 100, 2))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HedgingPolicy.afterLatencyPercentile(95, 10, 100, 6))
                .isInstanceOf(IllegalArgumentException.class);
        HedgingPolicy defaults = HedgingPolicy.afterLatencyPercentile(95);
        assertThat(defaults.followsLatency()).isTrue();
        assertThat(defaults.minDelayMillis()).isEqualTo(10);
        assertThat(defaults.delayMillis()).isEqualTo(100);
        assertThat(HedgingPolicy.afterMillis(20).followsLatency()).isFalse();
    }

    private static Set<String> answers(TailService tail, int calls) {
        Set<String> answers = new HashSet<>();
        for (int i = 0; i < calls; i++) {
            answers.add(tail.who());
        }
        return answers;
    }
}
