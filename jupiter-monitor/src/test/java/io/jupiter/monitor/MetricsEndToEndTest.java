package io.jupiter.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.testkit.Await;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.hawkular.agent.prometheus.text.TextPrometheusMetricDataParser;
import org.hawkular.agent.prometheus.types.Counter;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.hawkular.agent.prometheus.types.MetricType;
import org.hawkular.agent.prometheus.types.Summary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A known number of real calls, then the metrics read back through the console (text and JSON) and the HTTP
 * endpoint (Prometheus text, parsed by a real Prometheus parser).
 */
class MetricsEndToEndTest {

    @RegisterExtension
    static final JupiterServerExtension rpc = Fixture.rpc();

    private static final int SYNC_CALLS = 7;
    private static final int FUTURE_CALLS = 3;
    private static final String METHOD = "test-1.0.0-greeter#";

    private static Fixture fixture;

    @BeforeAll
    static void callKnownNumberOfTimes() throws Exception {
        fixture = new Fixture(rpc, b -> b.httpPort(0));
        for (int i = 0; i < SYNC_CALLS; i++) {
            assertThat(fixture.greeter().greet("n" + i)).isEqualTo("Hello, n" + i);
        }
        for (int i = 0; i < FUTURE_CALLS; i++) {
            assertThat(fixture.greeter().greetLater("f" + i).get()).isEqualTo("Later, f" + i);
        }
        Greeter missing = fixture.client.proxy(Greeter.class).version("9.9.9")
                .address("127.0.0.1:" + fixture.server.localAddress().getPort()).build();
        assertThatThrownBy(() -> missing.greet("nobody")).isInstanceOf(ServiceNotFoundException.class);
        // The consumer times a future call in a callback that may run just after the caller saw the value.
        await(() -> fixture.client.metrics().registry().timer(METHOD + "greetLater").getCount() == FUTURE_CALLS);
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @Test
    void textReportHasTheOriginalLayoutAndTheCounts() throws Exception {
        String report;
        try (ConsoleClient session = fixture.authenticated()) {
            report = session.command("metrics -report");
        }
        int all = SYNC_CALLS + FUTURE_CALLS + 1;
        String provider = report.substring(0, report.indexOf(" consumer ="));
        String consumer = report.substring(report.indexOf(" consumer ="));
        assertThat(provider).containsPattern("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d provider =+\r\n")
                .contains("-- Histograms ----")
                .contains("request.size [received request body size in bytes (without the 16-byte Jupiter header)]"
                        + "\r\n             count = " + all + "\r\n               min = ")
                .contains("response.size [sent response body size")
                .contains("-- Meters ----")
                .contains("rejection [requests refused (bad request, service not found, busy, flow control)]\r\n"
                        + "             count = 1\r\n         mean rate = ")
                .contains("-- Timers ----")
                .contains(METHOD + "greet [provider method execution time]\r\n             count = " + SYNC_CALLS
                        + "\r\n")
                .contains(METHOD + "greetLater [provider method execution time]\r\n             count = "
                        + FUTURE_CALLS + "\r\n")
                .contains("processing [request processing time")
                .containsPattern("\r\n             count = " + all + "\r\n         mean rate = [0-9.]+ calls/second")
                .containsPattern("\r\n               min = [0-9.]+ milliseconds\r\n")
                .containsPattern("\r\n              75% <= [0-9.]+ milliseconds\r\n")
                .containsPattern("\r\n            99.9% <= [0-9.]+ milliseconds\r\n");
        assertThat(consumer).contains("request.size [sent request body size")
                .contains(METHOD + "greet [consumer call time (request sent to response read)]\r\n"
                        + "             count = " + SYNC_CALLS + "\r\n")
                .contains("rejection [calls the provider refused");
    }

    @Test
    void jsonFormHasTheSameCounts() throws Exception {
        String json;
        try (ConsoleClient session = fixture.authenticated()) {
            json = session.command("metrics -json");
        }
        JsonNode root = new ObjectMapper().readTree(json);
        JsonNode provider = root.get("sides").get(0);
        JsonNode consumer = root.get("sides").get(1);
        int all = SYNC_CALLS + FUTURE_CALLS + 1;
        assertThat(provider.get("side").asText()).isEqualTo("provider");
        assertThat(provider.at("/histograms/request.size/count").asLong()).isEqualTo(all);
        assertThat(provider.at("/histograms/response.size/count").asLong()).isEqualTo(all);
        assertThat(provider.at("/meters/rejection/count").asLong()).isEqualTo(1);
        assertThat(provider.at("/timers/processing/count").asLong()).isEqualTo(all);
        assertThat(provider.at("/timers/" + METHOD + "greet/count").asLong()).isEqualTo(SYNC_CALLS);
        assertThat(provider.at("/timers/processing/duration_unit").asText()).isEqualTo("milliseconds");
        assertThat(consumer.get("side").asText()).isEqualTo("consumer");
        assertThat(consumer.at("/histograms/request.size/count").asLong()).isEqualTo(all);
        assertThat(consumer.at("/meters/rejection/count").asLong()).isEqualTo(1);
        assertThat(consumer.at("/timers/" + METHOD + "greetLater/count").asLong()).isEqualTo(FUTURE_CALLS);
        assertThat(consumer.at("/histograms/request.size/min").asDouble()).isPositive();
    }

    @Test
    void prometheusEndpointParsesWithARealParserAndNeedsThePassword() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = URI.create("http://127.0.0.1:" + fixture.monitor.httpAddress().getPort() + "/metrics");
        assertThat(fixture.monitor.httpAddress().getAddress().isLoopbackAddress()).isTrue();

        assertThat(http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(401);
        assertThat(http.send(authorized(uri, "wrong-password"), HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(401);
        URI other = uri.resolve("/other");
        assertThat(http.send(authorized(other, Fixture.PASSWORD), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(404);

        HttpResponse<String> response = http.send(authorized(uri, Fixture.PASSWORD),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue(PrometheusText.CONTENT_TYPE);

        Map<String, MetricFamily> families = new HashMap<>();
        TextPrometheusMetricDataParser parser = new TextPrometheusMetricDataParser(
                new ByteArrayInputStream(response.body().getBytes(StandardCharsets.UTF_8)));
        for (MetricFamily family = parser.parse(); family != null; family = parser.parse()) {
            families.put(family.getName(), family);
        }
        assertThat(families).containsOnlyKeys("jupiter_request_size_bytes", "jupiter_response_size_bytes",
                "jupiter_rejection_total", "jupiter_processing_seconds", "jupiter_method_seconds");
        int all = SYNC_CALLS + FUTURE_CALLS + 1;
        Summary requests = (Summary) find(families.get("jupiter_request_size_bytes"), "side", "provider");
        assertThat(requests.getSampleCount()).isEqualTo(all);
        assertThat(requests.getQuantiles()).hasSize(6);
        assertThat(families.get("jupiter_rejection_total").getType()).isEqualTo(MetricType.COUNTER);
        assertThat(((Counter) find(families.get("jupiter_rejection_total"), "side", "consumer")).getValue())
                .isEqualTo(1d);
        Summary greet = (Summary) families.get("jupiter_method_seconds").getMetrics().stream()
                .filter(m -> m.getLabels().equals(Map.of("side", "provider", "service", "test-1.0.0-greeter",
                        "method", "greet")))
                .findFirst().orElseThrow();
        assertThat(greet.getSampleCount()).isEqualTo(SYNC_CALLS);
        Summary processing = (Summary) find(families.get("jupiter_processing_seconds"), "side", "provider");
        assertThat(processing.getQuantiles().get(0).getValue()).isBetween(0d, 10d);

        HttpResponse<String> json = http.send(authorized(uri.resolve("/metrics.json"), Fixture.PASSWORD),
                HttpResponse.BodyHandlers.ofString());
        assertThat(new ObjectMapper().readTree(json.body()).at("/sides/0/meters/rejection/count").asLong())
                .isEqualTo(1);
    }

    @Test
    void disabledMetricsRecordNothing() {
        RpcMetrics off = RpcMetrics.create(RpcMetrics.Side.PROVIDER, false);
        off.request(10);
        off.response((byte) 0x51, 10, System.nanoTime());
        off.methodDone(this, new ServiceKey("g", "n", "1"), "m", off.startNanos());
        assertThat(off.registry().histogram("request.size").getCount()).isZero();
        assertThat(off.registry().meter("rejection").getCount()).isZero();
        assertThat(off.registry().getTimers()).containsOnlyKeys("processing");
        assertThat(TextReport.render(List.of(off), "\n")).contains("(metrics disabled)");
    }

    private static Metric find(MetricFamily family, String label, String value) {
        return family.getMetrics().stream().filter(m -> value.equals(m.getLabels().get(label))).findFirst()
                .orElseThrow();
    }

    private static HttpRequest authorized(URI uri, String password) {
        String token = Base64.getEncoder().encodeToString(("prometheus:" + password).getBytes(StandardCharsets.UTF_8));
        return HttpRequest.newBuilder(uri).header("Authorization", "Basic " + token).timeout(Duration.ofSeconds(10))
                .build();
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        Await.until("condition", Duration.ofSeconds(10), condition);
    }
}
