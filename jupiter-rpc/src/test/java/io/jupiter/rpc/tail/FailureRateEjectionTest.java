package io.jupiter.rpc.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.balance.OutlierEjection;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy.Direction;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Outlier ejection by failure rate against two real providers. Provider a's answers are held back 250 ms by its fault
 * proxy; the calls of {@code who} (timeout 100 ms) time out there, those of {@code whoAfter} (timeout 2 s) are
 * answered late. With both methods called, a's failures come between answers, so a run of failures never grows long
 * (the consecutive limit is set out of reach): only the failure share over the window can eject it.
 */
class FailureRateEjectionTest {

    private final TwoProviders providers = new TwoProviders();

    @AfterEach
    void close() {
        providers.close();
    }

    @Test
    void aProviderFailingBetweenAnswersIsEjectedByItsFailureShareAndReturns() throws Exception {
        TailService tail = proxy(OutlierEjection.of(1_000_000, 3_000, 6_000, 50).withFailureRate(30, 10, 5_000));
        awaitBothServe(tail);

        providers.proxyA.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(250));
        try (CallLoad failing = new CallLoad(2, 10_000, tail::who);
             CallLoad answered = new CallLoad(2, 10_000, () -> whoAfter(tail, 0))) {
            Await.until("provider a is ejected", Duration.ofSeconds(20),
                    () -> providers.meter(MetricNames.OUTLIER_EJECTION) >= 1);
            failing.close();
            answered.close();
            // Fail-over hides a's timeouts; its late answers are answers.
            assertThat(failing.failed.get()).as("failures %s", failing.failures()).isZero();
            assertThat(answered.failed.get()).as("failures %s", answered.failures()).isZero();
        }
        // Out of rotation: every call goes to b at once, one request each.
        long sentBefore = providers.requestsSent();
        for (int i = 0; i < 40; i++) {
            assertThat(tail.who()).isEqualTo("b");
        }
        assertThat(providers.requestsSent() - sentBefore).isEqualTo(40);

        providers.proxyA.healthy();
        // An answer from a alone does not show it returned: while it is out, an attempt failing over from b (a
        // who on b past its 100 ms on a loaded machine) still goes to a, the only other provider. So first its
        // return, which calls bring about once its ejection time is over, then its answers.
        Await.until("provider a returns from its ejection", Duration.ofSeconds(20), () -> {
            tail.who();
            return providers.meter(MetricNames.OUTLIER_RETURN) >= 1;
        });
        Await.until("provider a serves calls again", Duration.ofSeconds(20), () -> "a".equals(tail.who()));
    }

    @Test
    void aFailOverAttemptNeverGoesToAnEjectedProvider() throws Exception {
        // Ejected for 20 s: a stays out for the whole test.
        TailService tail = proxy(OutlierEjection.of(1_000_000, 20_000, 20_000, 50).withFailureRate(30, 10, 5_000));
        awaitBothServe(tail);

        providers.proxyA.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(250));
        try (CallLoad failing = new CallLoad(2, 10_000, tail::who);
             CallLoad answered = new CallLoad(2, 10_000, () -> whoAfter(tail, 0))) {
            Await.until("provider a is ejected", Duration.ofSeconds(20),
                    () -> providers.meter(MetricNames.OUTLIER_EJECTION) >= 1);
        }
        // a is healthy again but out; now b, the one provider in rotation, is too slow for who. Its fail-over
        // attempt is b's again, not a's: before, it went to a, which answered while ejected, with no return counted.
        providers.proxyA.healthy();
        providers.proxyB.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(250));
        long aBefore = providers.a.calls.get();
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(tail::who).as("call %d", i).isInstanceOf(TimeoutException.class);
        }
        assertThat(providers.a.calls.get()).isEqualTo(aBefore);
        assertThat(providers.meter(MetricNames.OUTLIER_RETURN)).isZero();
    }

    @Test
    void withoutTheFailureRateRuleTheSameProviderStaysIn() throws Exception {
        TailService tail = proxy(OutlierEjection.of(1_000_000, 3_000, 6_000, 50).withoutFailureRate());
        awaitBothServe(tail);

        providers.proxyA.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(250));
        long aBefore = providers.a.calls.get();
        try (CallLoad failing = new CallLoad(2, 10_000, tail::who);
             CallLoad answered = new CallLoad(2, 10_000, () -> whoAfter(tail, 0))) {
            // As many attempts on a as ejected it above, several times over.
            Await.until("provider a ran 60 more attempts", Duration.ofSeconds(30),
                    () -> providers.a.calls.get() - aBefore >= 60);
        }
        assertThat(providers.meter(MetricNames.OUTLIER_EJECTION)).isZero();
    }

    @Test
    void theFailureRateRuleNeverEjectsEveryProvider() throws Exception {
        TailService tail = proxy(OutlierEjection.of(1_000_000, 20_000, 20_000, 100).withFailureRate(30, 10, 5_000));
        awaitBothServe(tail);

        providers.proxyA.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(250));
        providers.proxyB.delay(Direction.TARGET_TO_CLIENT, Duration.ofMillis(250));
        try (CallLoad failing = new CallLoad(2, 10_000, tail::who);
             CallLoad answered = new CallLoad(2, 10_000, () -> whoAfter(tail, 0))) {
            Await.until("one provider is ejected", Duration.ofSeconds(20),
                    () -> providers.meter(MetricNames.OUTLIER_EJECTION) >= 1);
            long callsThen = providers.a.calls.get() + providers.b.calls.get();
            Await.until("60 more attempts ran", Duration.ofSeconds(30),
                    () -> providers.a.calls.get() + providers.b.calls.get() - callsThen >= 60);
        }
        // 100 % allowed and both failing as often, yet the other stays in (the ejection lasts 20 s).
        assertThat(providers.meter(MetricNames.OUTLIER_EJECTION)).isEqualTo(1);
    }

    /** {@code who} times out on a slowed provider, {@code whoAfter} is answered; both fail over once. */
    private TailService proxy(OutlierEjection ejection) {
        return providers.proxy().loadBalancer(LoadBalancerType.RANDOM).cluster(ClusterStrategy.failOver(1))
                .idempotent("who", "whoAfter").timeoutMillis(2_000).methodTimeoutMillis("who", 100)
                .outlierEjection(ejection).build();
    }

    private void awaitBothServe(TailService tail) {
        Await.until("both providers serve", Duration.ofSeconds(10), () -> {
            // whoAfter (2 s): a first call of who (100 ms) on a loaded machine can time out on both providers.
            whoAfter(tail, 0);
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
