package io.jupiter.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.cluster.ClusterStrategy.Kind;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.spring.boot.JupiterReference;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy;
import io.jupiter.testkit.FaultProxy.Direction;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * The tail tolerance of {@code @JupiterReference} in a real Spring context: two providers of {@link Who} on
 * 127.0.0.1, each behind a {@link FaultProxy}, and references that set the balancer, outlier ejection, the retry
 * budget and hedging; each setting shows in what the calls do when a fault is injected.
 */
class TailToleranceReferenceTest {

    private static final String ADDRESSES = "${who.addresses}";

    private final AtomicLong callsOfA = new AtomicLong();
    private final JupiterServer serverA = server("a", callsOfA);
    private final JupiterServer serverB = server("b", new AtomicLong());
    private final FaultProxy proxyA = FaultProxy.start(serverA.start().getPort());
    private final FaultProxy proxyB = FaultProxy.start(serverB.start().getPort());
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JupiterAutoConfiguration.class))
            .withPropertyValues("jupiter.server.host=127.0.0.1", "jupiter.server.port=0",
                    "who.addresses=127.0.0.1:" + proxyA.port() + ",127.0.0.1:" + proxyB.port());

    /** Fail-over once after 200 ms; one reference ejects after 2 failures, the other never. */
    static class Ejection {
        @JupiterReference(address = ADDRESSES, loadBalancer = LoadBalancerType.ROUND_ROBIN, cluster = Kind.FAIL_OVER,
                failoverRetries = 1, idempotent = "who", timeoutMillis = 200, outlierConsecutiveFailures = 2,
                outlierEjectionMillis = 30_000, retryBudget = false)
        Who ejecting;

        @JupiterReference(address = ADDRESSES, loadBalancer = LoadBalancerType.ROUND_ROBIN, cluster = Kind.FAIL_OVER,
                failoverRetries = 1, idempotent = "who", timeoutMillis = 200, outlierEjection = false,
                retryBudget = false)
        Who neverEjecting;
    }

    /** Fail-over twice after 100 ms, no ejection; one reference with a budget of 2 tokens, the other with none. */
    static class Budget {
        @JupiterReference(address = ADDRESSES, cluster = Kind.FAIL_OVER, failoverRetries = 2, idempotent = "who",
                timeoutMillis = 100, outlierEjection = false, retryBudgetMaxTokens = 2)
        Who budgeted;

        @JupiterReference(address = ADDRESSES, cluster = Kind.FAIL_OVER, failoverRetries = 2, idempotent = "who",
                timeoutMillis = 100, outlierEjection = false, retryBudget = false)
        Who unbudgeted;
    }

    /**
     * Hedged at the p90 with a 3 s fallback (two references, made distinct by an attribute that changes nothing),
     * and at a fixed 50 ms.
     */
    static class Hedging {
        @JupiterReference(address = ADDRESSES, loadBalancer = LoadBalancerType.ROUND_ROBIN, idempotent = "who",
                timeoutMillis = 5_000, hedgingPercentile = 90, hedgingDelayMillis = 3_000)
        Who learning;

        @JupiterReference(address = ADDRESSES, loadBalancer = LoadBalancerType.ROUND_ROBIN, idempotent = "who",
                timeoutMillis = 5_000, hedgingPercentile = 90, hedgingDelayMillis = 3_000, hedgingMaxAttempts = 2)
        Who fresh;

        @JupiterReference(address = ADDRESSES, loadBalancer = LoadBalancerType.ROUND_ROBIN, idempotent = "who",
                timeoutMillis = 5_000, hedgingDelayMillis = 50)
        Who fixed;
    }

    static class EjectionOffWithSettings {
        @JupiterReference(address = ADDRESSES, outlierEjection = false, outlierConsecutiveFailures = 3)
        Who who;
    }

    static class HedgingWithoutIdempotentMethods {
        @JupiterReference(address = ADDRESSES, hedgingDelayMillis = 50)
        Who who;
    }

    static class BadPercentile {
        @JupiterReference(address = ADDRESSES, idempotent = "who", hedgingPercentile = 20)
        Who who;
    }

    @AfterEach
    void close() {
        proxyA.close();
        proxyB.close();
        serverA.close();
        serverB.close();
    }

    @Test
    void outlierEjectionIsSetPerReference() {
        runner.withBean(Ejection.class).run(context -> {
            assertThat(context).hasNotFailed();
            Ejection refs = context.getBean(Ejection.class);
            awaitBothServe(refs.neverEjecting);
            awaitBothServe(refs.ejecting);
            proxyA.blackhole();

            long sent = requestsSent(context);
            for (int i = 0; i < 10; i++) {
                assertThat(refs.neverEjecting.who()).isEqualTo("b");
            }
            assertThat(requestsSent(context) - sent).as("round robin keeps trying a first").isGreaterThan(12);
            assertThat(meter(context, MetricNames.OUTLIER_EJECTION)).isZero();

            Await.until("a is ejected", Duration.ofSeconds(10), () -> {
                assertThat(refs.ejecting.who()).isEqualTo("b");
                return meter(context, MetricNames.OUTLIER_EJECTION) >= 1;
            });
            sent = requestsSent(context);
            for (int i = 0; i < 20; i++) {
                assertThat(refs.ejecting.who()).isEqualTo("b");
            }
            assertThat(requestsSent(context) - sent).as("a is out: one request per call").isEqualTo(20);
        });
    }

    @Test
    void theRetryBudgetIsSetPerReference() {
        runner.withBean(Budget.class).run(context -> {
            assertThat(context).hasNotFailed();
            Budget refs = context.getBean(Budget.class);
            awaitBothServe(refs.budgeted);
            awaitBothServe(refs.unbudgeted);
            proxyA.blackhole();
            proxyB.blackhole();

            long sent = requestsSent(context);
            for (int i = 0; i < 10; i++) {
                assertThatThrownBy(refs.budgeted::who).isInstanceOf(TimeoutException.class);
            }
            // Two tokens: the first failure leaves one, not more than half, so no retry is sent.
            assertThat(requestsSent(context) - sent).isLessThanOrEqualTo(12);

            sent = requestsSent(context);
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(refs.unbudgeted::who).isInstanceOf(TimeoutException.class);
            }
            assertThat(requestsSent(context) - sent).as("no budget: every retry").isEqualTo(15);
        });
    }

    @Test
    void hedgingIsSetPerReference() {
        runner.withBean(Hedging.class).run(context -> {
            assertThat(context).hasNotFailed();
            Hedging refs = context.getBean(Hedging.class);
            for (int i = 0; i < 150; i++) { // more attempts than the percentile needs
                refs.learning.who();
            }
            awaitBothServe(refs.fresh);
            awaitBothServe(refs.fixed);
            // 1 s late: a margin far above the hedges' delays, so a loaded machine's stall does not let a win.
            proxyA.delay(Direction.TARGET_TO_CLIENT, Duration.ofSeconds(1));

            for (int i = 0; i < 20; i++) {
                assertThat(refs.learning.who()).as("hedged at the learned p90").isEqualTo("b");
                assertThat(refs.fixed.who()).as("hedged after 50 ms").isEqualTo("b");
            }
            // No samples yet: the 3 s fallback holds, so calls sent to a first (round robin: one in two) wait for its
            // late answer.
            assertThat(answers(refs.fresh, 4)).contains("a");
        });
    }

    @Test
    void conflictingOrIncompleteSettingsFailTheStartNamingTheAttribute() {
        runner.withBean(EjectionOffWithSettings.class).run(context -> assertThat(context).getFailure()
                .rootCause().hasMessageContaining("@JupiterReference(outlierEjection)")
                .hasMessageContaining("EjectionOffWithSettings"));
        runner.withBean(HedgingWithoutIdempotentMethods.class).run(context -> assertThat(context).getFailure()
                .rootCause().hasMessageContaining("@JupiterReference(hedging*)")
                .hasMessageContaining("idempotent"));
        runner.withBean(BadPercentile.class).run(context -> assertThat(context).getFailure()
                .rootCause().hasMessageContaining("percentile: 20.0"));
    }

    private static JupiterServer server(String name, AtomicLong calls) {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register((Who) () -> {
            calls.incrementAndGet();
            return name;
        });
        return server;
    }

    private static void awaitBothServe(Who who) {
        Await.until("both providers serve", Duration.ofSeconds(10),
                () -> answers(who, 4).equals(Set.of("a", "b")));
    }

    private static Set<String> answers(Who who, int calls) {
        Set<String> answers = new HashSet<>();
        for (int i = 0; i < calls; i++) {
            answers.add(who.who());
        }
        return answers;
    }

    private static long requestsSent(ApplicationContext context) {
        return context.getBean(JupiterClient.class).metrics().registry().histogram("request.size").getCount();
    }

    private static long meter(ApplicationContext context, String name) {
        return context.getBean(JupiterClient.class).metrics().registry().meter(name).getCount();
    }
}
