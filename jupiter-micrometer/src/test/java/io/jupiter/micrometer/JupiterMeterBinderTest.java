package io.jupiter.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.Await;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real provider serving {@link Greeter} and a real consumer, a fresh pair for each test (the test kit's extension,
 * in process; it also fails a test that leaves a connection, a thread or a buffer behind).
 */
class JupiterMeterBinderTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int CALLS = 5;

    @RegisterExtension
    final JupiterServerExtension rpc = JupiterServerExtension.builder()
            .service((Greeter) name -> "Hello, " + name)
            .server(b -> b.serializers(SerializerType.PROTOSTUFF))
            .client(b -> b.appName("micrometer-test"))
            .build();

    @Test
    void countsEveryCallOnBothSides() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Greeter greeter = greeter();
        try (JupiterMeterBinder binder = JupiterMeterBinder.of(Tags.of("app", "test"), rpc.server().metrics(),
                rpc.client().metrics())) {
            binder.bindTo(registry);
            for (int i = 0; i < CALLS; i++) {
                assertThat(greeter.greet("ada")).isEqualTo("Hello, ada");
            }
            // the provider records a response once it is handed to the connection, maybe after the consumer read it
            Await.until("the provider recorded " + CALLS + " responses", WAIT,
                    () -> count(registry, JupiterMeterBinder.PROCESSING, "provider") == CALLS);

            for (String side : new String[] {"provider", "consumer"}) {
                assertThat(registry.get(JupiterMeterBinder.METHOD).tags("side", side, "group", "test",
                        "service", "greeter", "version", "1.0.0", "method", "greet", "app", "test").timer().count())
                        .as("%s method timer", side).isEqualTo(CALLS);
                assertThat(registry.get(JupiterMeterBinder.REQUEST_SIZE).tags("side", side).summary().count())
                        .as("%s request sizes", side).isEqualTo(CALLS);
                assertThat(registry.get(JupiterMeterBinder.RESPONSE_SIZE).tags("side", side).summary().count())
                        .as("%s response sizes", side).isEqualTo(CALLS);
                assertThat(registry.get(JupiterMeterBinder.REJECTION).tags("side", side).counter().count())
                        .as("%s rejections", side).isZero();
            }
            assertThat(registry.get(JupiterMeterBinder.REQUEST_SIZE).tags("side", "consumer").summary().totalAmount())
                    .as("request bytes sent").isPositive();
            assertThat(registry.get(JupiterMeterBinder.METHOD).tags("side", "consumer").timer()
                    .totalTime(TimeUnit.NANOSECONDS)).isPositive();
            assertThat(registry.find(JupiterMeterBinder.PROCESSING).tags("side", "consumer").timer())
                    .as("processing is provider only").isNull();

            Unregistered unregistered = rpc.proxy(Unregistered.class).timeoutMillis(10_000).build();
            assertThatThrownBy(() -> unregistered.anything("x")).isInstanceOf(ServiceNotFoundException.class);
            Await.until("both sides counted the refused call", WAIT,
                    () -> registry.get(JupiterMeterBinder.REJECTION).tags("side", "provider").counter().count() == 1
                            && registry.get(JupiterMeterBinder.REJECTION).tags("side", "consumer").counter()
                                    .count() == 1);
        }
    }

    @Test
    void prometheusGetsHistogramBuckets() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Greeter greeter = greeter();
        try (JupiterMeterBinder binder = JupiterMeterBinder.of(rpc.server().metrics(), rpc.client().metrics())) {
            binder.bindTo(registry);
            for (int i = 0; i < CALLS; i++) {
                greeter.greet("bob");
            }
            Await.until("the provider recorded " + CALLS + " responses", WAIT,
                    () -> count(registry, JupiterMeterBinder.PROCESSING, "provider") == CALLS);

            String scrape = registry.scrape();
            assertThat(scrape).containsPattern("(?m)^jupiter_method_seconds_bucket\\{[^}]*side=\"consumer\"[^}]*le=\"")
                    .containsPattern("(?m)^jupiter_method_seconds_count\\{[^}]*method=\"greet\"[^}]*side=\"provider\""
                            + "[^}]*} " + CALLS + "(\\.0)?$")
                    .containsPattern("(?m)^jupiter_processing_seconds_bucket\\{side=\"provider\",le=\"\\+Inf\"} "
                            + CALLS + "(\\.0)?$")
                    .containsPattern("(?m)^jupiter_request_size_bytes_count\\{side=\"consumer\"} " + CALLS
                            + "(\\.0)?$")
                    .containsPattern("(?m)^jupiter_response_size_bytes_bucket\\{side=\"provider\",le=")
                    .containsPattern("(?m)^jupiter_rejection_total\\{side=\"provider\"} 0(\\.0)?$");
        }
    }

    @Test
    void theNewNamesFollowTheRpcConventionsAndTheFirstNamesCanBeLeftOut() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Greeter greeter = greeter();
        try (JupiterMeterBinder binder = JupiterMeterBinder.of(rpc.server(), rpc.client()).legacyNames(false)) {
            binder.bindTo(registry);
            for (int i = 0; i < CALLS; i++) {
                greeter.greet("bob");
            }
            Await.until("the provider recorded " + CALLS + " responses", WAIT, () -> registry.find(
                    JupiterMeterBinder.SERVER_PROCESSING).timer() != null && registry.get(
                    JupiterMeterBinder.SERVER_PROCESSING).timer().count() == CALLS);

            String scrape = registry.scrape();
            assertThat(scrape)
                    .containsPattern("(?m)^rpc_server_request_size_bytes_count\\{rpc_system_name=\"jupiter\"} "
                            + CALLS + "(\\.0)?$")
                    .containsPattern("(?m)^rpc_client_request_size_bytes_count\\{rpc_system_name=\"jupiter\"} "
                            + CALLS + "(\\.0)?$")
                    .containsPattern("(?m)^rpc_server_response_size_bytes_bucket\\{")
                    .containsPattern("(?m)^rpc_client_response_size_bytes_count\\{")
                    .containsPattern("(?m)^rpc_jupiter_server_rejected_total\\{rpc_system_name=\"jupiter\"} 0")
                    .containsPattern("(?m)^rpc_jupiter_client_rejected_total\\{")
                    .containsPattern("(?m)^rpc_jupiter_server_processing_duration_seconds_bucket\\{")
                    .containsPattern("(?m)^rpc_jupiter_server_connections\\{rpc_system_name=\"jupiter\"} [1-9]")
                    .containsPattern("(?m)^rpc_jupiter_client_connections\\{rpc_system_name=\"jupiter\"} [1-9]")
                    .containsPattern("(?m)^rpc_jupiter_client_providers\\{rpc_system_name=\"jupiter\"} 1(\\.0)?$")
                    .doesNotContain("jupiter_method_seconds").doesNotContain("jupiter_request_size_bytes");
        }
        assertThat(registry.getMeters()).as("close removes the gauges too").isEmpty();
    }

    @Test
    void closeStopsRecordingAndRemovesTheMeters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Greeter greeter = greeter();
        JupiterMeterBinder binder = JupiterMeterBinder.of(rpc.client());
        binder.bindTo(registry);
        greeter.greet("eve");
        assertThat(registry.get(JupiterMeterBinder.METHOD).tags("side", "consumer").timer().count())
                .isEqualTo(1);

        binder.close();
        assertThat(registry.getMeters()).isEmpty();
        greeter.greet("eve");
        assertThat(registry.getMeters()).as("no meter comes back after close").isEmpty();
        assertThatThrownBy(() -> binder.bindTo(registry)).isInstanceOf(IllegalStateException.class);
    }

    private Greeter greeter() {
        return rpc.proxy(Greeter.class).timeoutMillis(10_000).build();
    }

    private static long count(MeterRegistry registry, String timer, String side) {
        Timer found = registry.find(timer).tags("side", side).timer();
        return found == null ? 0 : found.count();
    }
}
