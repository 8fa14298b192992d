package io.jupiter.rpc.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.cluster.HedgingPolicy;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy.Direction;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hedged calls against two real providers, one slowed down by 500 ms through its fault proxy: every call is answered
 * by the fast one (the slow provider's answer loses), the hedges are sent, and the cancelled attempts give their
 * in-flight slots back (the client allows only 3 calls in flight) and their late answers are dropped without a
 * leak (the build's leak detector runs at paranoid).
 */
class HedgingTest {

    private final TwoProviders providers = new TwoProviders(JupiterClient.builder().maxInFlight(3).build());

    @AfterEach
    void close() {
        providers.close();
    }

    @Test
    void theSlowProvidersAnswerLosesAndNothingLeaks() throws Exception {
        TailService tail = providers.proxy().loadBalancer(LoadBalancerType.ROUND_ROBIN).idempotent("who", "whoLater")
                .hedging(HedgingPolicy.afterMillis(50)).timeoutMillis(3_000).build();
        Await.until("both providers serve", Duration.ofSeconds(10), () -> {
            tail.who();
            return providers.a.calls.get() > 2 && providers.b.calls.get() > 2;
        });

        providers.proxyB.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(500));
        long sentBefore = providers.requestsSent();
        long bBefore = providers.b.calls.get();
        for (int i = 0; i < 20; i++) {
            assertThat(tail.who()).isEqualTo("a");
            assertThat(tail.whoLater().get(5, TimeUnit.SECONDS)).isEqualTo("a");
        }
        // Round robin sends about half the first attempts to b; each of those is hedged on a.
        assertThat(providers.requestsSent() - sentBefore).isGreaterThan(40);
        // b ran the first attempts it got (so its answers lost every time); they arrive late and are dropped.
        assertThat(providers.b.calls.get() - bBefore).isGreaterThanOrEqualTo(10);
        providers.proxyB.healthy();
        Await.until("b answers again", Duration.ofSeconds(10), () -> "b".equals(tail.who()));
    }

    @Test
    void onlyIdempotentMethodsAreHedged() {
        assertThatThrownBy(() -> providers.proxy().methodHedging("who", HedgingPolicy.afterMillis(10)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("idempotent(\"who\")");
        assertThatThrownBy(() -> HedgingPolicy.of(0, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HedgingPolicy.of(10, 6)).isInstanceOf(IllegalArgumentException.class);
    }
}
