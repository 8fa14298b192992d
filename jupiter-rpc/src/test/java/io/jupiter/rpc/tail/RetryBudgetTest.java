package io.jupiter.rpc.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.balance.OutlierEjection;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.cluster.RetryBudget;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy.Direction;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The retry budget with every provider failing (each behind a fault proxy that holds its answers back longer than
 * the call's timeout): fail-over retries stop after a few, so the requests sent stay within 10 % of the calls made;
 * without a budget each call is sent three times. Calls succeed again as soon as the providers answer.
 */
class RetryBudgetTest {

    private final TwoProviders providers = new TwoProviders();

    @AfterEach
    void close() {
        providers.close();
    }

    @Test
    void withEveryProviderDownRetriesAddAtMostTenPercent() {
        TailService tail = providers.proxy().cluster(ClusterStrategy.failOver(2)).idempotent("who")
                .timeoutMillis(100).outlierEjection(OutlierEjection.off()).build();
        awaitBothServe(tail);

        slowDownBoth();
        long sentBefore = providers.requestsSent();
        int calls = 50;
        for (int i = 0; i < calls; i++) {
            assertThatThrownBy(tail::who).isInstanceOf(TimeoutException.class);
        }
        long sent = providers.requestsSent() - sentBefore;
        assertThat(sent).as("requests sent for %d calls", calls).isBetween((long) calls, calls + calls / 10L);
        assertThat(providers.meter(MetricNames.RETRY_THROTTLED)).isGreaterThanOrEqualTo(calls - (sent - calls));

        providers.proxyA.healthy();
        providers.proxyB.healthy();
        Await.until("calls succeed again", Duration.ofSeconds(5), () -> {
            try {
                return tail.who() != null;
            } catch (TimeoutException e) {
                return false; // an answer held back until the heal may still time out
            }
        });
    }

    @Test
    void withoutABudgetEveryRetryIsSent() {
        TailService tail = providers.proxy().cluster(ClusterStrategy.failOver(2)).idempotent("who")
                .timeoutMillis(100).outlierEjection(OutlierEjection.off()).retryBudget(RetryBudget.unlimited())
                .build();
        awaitBothServe(tail);

        slowDownBoth();
        long sentBefore = providers.requestsSent();
        for (int i = 0; i < 10; i++) {
            assertThatThrownBy(tail::who).isInstanceOf(TimeoutException.class);
        }
        assertThat(providers.requestsSent() - sentBefore).isEqualTo(30);
    }

    @Test
    void settingsAreChecked() {
        assertThatThrownBy(() -> RetryBudget.of(0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryBudget.of(10, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RetryBudget.of(10, 101)).isInstanceOf(IllegalArgumentException.class);
        assertThat(RetryBudget.defaults().maxTokens()).isEqualTo(10);
        assertThat(RetryBudget.unlimited().limited()).isFalse();
    }

    /** Answers come back 500 ms late through both proxies: every attempt times out, the connections stay up. */
    private void slowDownBoth() {
        providers.proxyA.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(500));
        providers.proxyB.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(500));
    }

    private void awaitBothServe(TailService tail) {
        Await.until("both providers serve", Duration.ofSeconds(10), () -> {
            tail.who();
            return providers.a.calls.get() > 2 && providers.b.calls.get() > 2;
        });
    }
}
