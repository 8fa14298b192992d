package io.jupiter.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.micrometer.observation.RpcObservationFilter;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.testkit.Await;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two real Spring Boot 4 applications in one JVM, each with the starter's auto-configuration, Actuator, the
 * Prometheus registry and micrometer-tracing's OpenTelemetry bridge, and nothing Jupiter-specific configured for
 * observability: a web request to the consumer, whose handler calls the provider over TCP on 127.0.0.1, is one trace
 * of three spans (HTTP server, RPC client, RPC server), and both applications' {@code /actuator/prometheus} show the
 * RPC call timers.
 */
class ObservabilityBootTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String[] COMMON = {
        "server.address=127.0.0.1", "server.port=0",
        "management.tracing.sampling.probability=1.0",
        "management.endpoints.web.exposure.include=prometheus",
        // no OTLP collector here: the metrics are read from /actuator/prometheus
        "management.otlp.metrics.export.enabled=false",
        "jupiter.server.host=127.0.0.1", "jupiter.server.port=0", "jupiter.server.shutdown-timeout=5s"};

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void aWebRequestCallingAProviderIsOneTraceOfThreeSpansAndTheTimersAreScraped() throws Exception {
        TracedWebConsumer.SPANS.reset();
        try (ConfigurableApplicationContext provider = new SpringApplicationBuilder(TracedProvider.class)
                .properties(COMMON).properties("spring.application.name=provider").run();
             ConfigurableApplicationContext consumer = new SpringApplicationBuilder(TracedWebConsumer.class)
                .properties(COMMON).properties("spring.application.name=web", "greeter.address=127.0.0.1:"
                        + provider.getBean(JupiterServer.class).localAddress().getPort()).run()) {
            assertThat(provider.getBeansOfType(RpcObservationFilter.class)).as("installed with no configuration")
                    .hasSize(1);

            assertThat(get(consumer, "/greet?name=ada")).isEqualTo("Hello, ada");

            Await.until("the three spans of the request exported", WAIT,
                    () -> TracedWebConsumer.SPANS.getFinishedSpanItems().size() >= 3);
            List<SpanData> spans = TracedWebConsumer.SPANS.getFinishedSpanItems();
            assertThat(spans).hasSize(3);
            assertThat(spans).extracting(SpanData::getTraceId).as("one trace")
                    .containsOnly(spans.get(0).getTraceId());
            SpanData web = only(spans, SpanKind.SERVER, "http get /greet");
            SpanData client = only(spans, SpanKind.CLIENT, "greeter/greet");
            SpanData server = only(spans, SpanKind.SERVER, "greeter/greet");
            assertThat(client.getParentSpanId()).as("the RPC client span is a child of the HTTP span")
                    .isEqualTo(web.getSpanId());
            assertThat(server.getParentSpanId()).as("the RPC server span is a child of the RPC client span")
                    .isEqualTo(client.getSpanId());
            for (SpanData rpc : List.of(client, server)) {
                assertThat(rpc.getAttributes().get(AttributeKey.stringKey("rpc.system.name"))).isEqualTo("jupiter");
                assertThat(rpc.getAttributes().get(AttributeKey.stringKey("rpc.system"))).isEqualTo("jupiter");
                assertThat(rpc.getAttributes().get(AttributeKey.stringKey("rpc.service"))).isEqualTo("greeter");
                assertThat(rpc.getAttributes().get(AttributeKey.stringKey("rpc.method"))).isEqualTo("greeter/greet");
                assertThat(rpc.getAttributes().get(AttributeKey.stringKey("rpc.response.status_code")))
                        .isEqualTo("OK");
                assertThat(rpc.getAttributes().get(AttributeKey.stringKey("rpc.jupiter.invoke_id"))).isNotBlank();
            }
            assertThat(client.getAttributes().get(AttributeKey.stringKey("server.address"))).isEqualTo("127.0.0.1");
            assertThat(server.getAttributes().get(AttributeKey.stringKey("network.peer.address")))
                    .isEqualTo("127.0.0.1");
            assertThat(server.getAttributes().get(AttributeKey.stringKey("rpc.jupiter.app"))).isEqualTo("web");

            assertThat(get(consumer, "/actuator/prometheus"))
                    .contains("rpc_client_call_duration_seconds_count{")
                    .contains("rpc_client_call_duration_seconds_bucket{")
                    .containsPattern("rpc_client_call_duration_seconds_count\\{[^}]*rpc_method=\"greeter/greet\""
                            + "[^}]*rpc_response_status_code=\"OK\"[^}]*} 1");
            // the provider stops its observation once the response is handed to the connection
            Await.until("the provider's timer scraped", WAIT, () -> scrape(provider)
                    .matches("(?s).*rpc_server_call_duration_seconds_count\\{[^}]*rpc_method=\"greeter/greet\""
                            + "[^}]*} 1.*"));
        }
    }

    private static SpanData only(List<SpanData> spans, SpanKind kind, String name) {
        List<SpanData> matching = spans.stream().filter(s -> s.getKind() == kind && s.getName().equals(name)).toList();
        assertThat(matching).as(kind + " " + name + " in " + spans).hasSize(1);
        return matching.get(0);
    }

    private String scrape(ConfigurableApplicationContext context) {
        try {
            return get(context, "/actuator/prometheus");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String get(ConfigurableApplicationContext context, String path) throws IOException, InterruptedException {
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }
}
