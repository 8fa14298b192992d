package io.jupiter.micrometer.observation;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.micrometer.JupiterMeterBinder;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.Await;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every metric the dashboard and the alerting rules in docs/observability/ query exists in the Prometheus output of
 * a running server and client (TCP on 127.0.0.1) instrumented as docs/observability.md says: the Observation filter
 * with Micrometer's meter handler and the call timers' histograms, and the meter binder of both.
 */
class DashboardMetricsTest {

    static final Path DOCS = Path.of("").toAbsolutePath().getParent().resolve("docs/observability");
    /** A metric name: an {@code rpc_} name outside label matchers, {@code by (...)} lists and legend formats. */
    private static final Pattern METRIC = Pattern.compile("\\b(rpc_[a-z0-9_]+)\\b");
    private static final Pattern EXPR = Pattern.compile("\"(?:expr|definition)\": \"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern YAML_EXPR = Pattern.compile("(?m)^\\s+expr: (\\|\\n(?:\\s{10,}.*\\n?)+|.*)$");

    private static final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private static final RpcObservationFilter filter = new RpcObservationFilter(observations());

    @RegisterExtension
    final JupiterServerExtension rpc = JupiterServerExtension.builder()
            .service(new Hop.Impl())
            .tcp()
            .server(b -> b.serializers(SerializerType.PROTOSTUFF).interceptor(filter))
            .client(b -> b.appName("dashboard").interceptor(filter))
            .build();

    private static ObservationRegistry observations() {
        prometheus.config().meterFilter(RpcHistograms.meterFilter());
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(prometheus));
        return registry;
    }

    @Test
    void everyMetricTheDashboardAndTheAlertsQueryIsScraped() throws IOException {
        Set<String> queried = new TreeSet<>();
        queried.addAll(metricsIn(Files.readString(DOCS.resolve("jupiter-dashboard.json")), EXPR));
        Set<String> dashboard = new TreeSet<>(queried);
        queried.addAll(metricsIn(Files.readString(DOCS.resolve("jupiter-alerts.yml")), YAML_EXPR));
        assertThat(dashboard).as("the dashboard's metrics").contains("rpc_server_call_duration_seconds_bucket",
                "rpc_server_call_duration_seconds_count", "rpc_client_call_duration_seconds_bucket",
                "rpc_jupiter_server_rejected_total", "rpc_jupiter_server_connections",
                "rpc_jupiter_client_providers", "rpc_server_call_duration_active_seconds_count");

        try (JupiterMeterBinder binder = JupiterMeterBinder.of(rpc.server(), rpc.client())) {
            binder.bindTo(prometheus);
            Hop hop = rpc.proxy(Hop.class).timeoutMillis(10_000).build();
            assertThat(hop.greet("ada")).isEqualTo("Hello, ada");
            Await.until("the server's call timer", Duration.ofSeconds(10),
                    () -> prometheus.scrape().contains("rpc_server_call_duration_seconds_count{"));

            Set<String> scraped = new TreeSet<>();
            for (String line : prometheus.scrape().split("\n")) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    scraped.add(line.split("[{ ]", 2)[0]);
                }
            }
            assertThat(scraped).as("the Prometheus output of a running server and client").containsAll(queried);
        }
    }

    /** The {@code rpc_} metric names in the expressions {@code expr} finds in {@code text}. */
    static Set<String> metricsIn(String text, Pattern expr) {
        Set<String> names = new TreeSet<>();
        Matcher expressions = expr.matcher(text);
        while (expressions.find()) {
            String query = expressions.group(1).replace("\\\"", "\"")
                    .replaceAll("\\{[^}]*}", " ")
                    .replaceAll("\\b(by|without) \\([^)]*\\)", " ")
                    .replaceAll("label_values\\(([a-z0-9_]+)[^)]*\\)", "$1");
            Matcher metric = METRIC.matcher(query);
            while (metric.find()) {
                names.add(metric.group(1));
            }
        }
        assertThat(names).as("metrics found in the expressions").isNotEmpty();
        return names;
    }
}
