package io.jupiter.micrometer.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.Await;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The filter on a real server and client over TCP on 127.0.0.1, with the handlers a Spring Boot application with
 * micrometer-tracing's OpenTelemetry bridge has: Micrometer's meter handler (timers) and the tracing handlers (spans,
 * the trace context written into and read from the request's attachments), spans kept by the SDK's in-memory
 * exporter.
 */
class RpcObservationFilterTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final AttributeKey<String> SYSTEM_NAME = AttributeKey.stringKey("rpc.system.name");
    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("rpc.method");
    private static final AttributeKey<String> SERVICE = AttributeKey.stringKey("rpc.service");
    private static final AttributeKey<String> STATUS = AttributeKey.stringKey("rpc.response.status_code");
    private static final AttributeKey<String> SIDE = AttributeKey.stringKey("rpc.jupiter.side");
    private static final AttributeKey<String> INVOKE_ID = AttributeKey.stringKey("rpc.jupiter.invoke_id");
    private static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    private static final AttributeKey<String> SERVER_PORT = AttributeKey.stringKey("server.port");
    private static final AttributeKey<String> PEER_ADDRESS = AttributeKey.stringKey("network.peer.address");

    private static final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private static final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter))
                    .build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private static final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private static final OtelTracer tracer = tracer();
    private static final ObservationRegistry observations = observationRegistry();
    private static final RpcObservationFilter filter = new RpcObservationFilter(observations);
    private static final Hop.Impl impl = new Hop.Impl();

    @RegisterExtension
    static final JupiterServerExtension rpc = JupiterServerExtension.builder()
            .service(impl)
            .tcp()
            .server(b -> b.serializers(SerializerType.PROTOSTUFF).interceptor(filter))
            .client(b -> b.appName("observed").interceptor(filter))
            .build();

    private static JupiterClient downstreamClient;
    private static Hop hop;

    private static OtelTracer tracer() {
        OtelCurrentTraceContext current = new OtelCurrentTraceContext();
        return new OtelTracer(sdk.getTracer("test"), current, event -> { },
                new OtelBaggageManager(current, List.of(), List.of()));
    }

    private static ObservationRegistry observationRegistry() {
        ObservationRegistry registry = ObservationRegistry.create();
        OtelPropagator propagator = new OtelPropagator(sdk.getPropagators(), sdk.getTracer("test"));
        registry.observationConfig()
                .observationHandler(new DefaultMeterObservationHandler(meters))
                .observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                        new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                        new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                        new DefaultTracingObservationHandler(tracer)));
        return registry;
    }

    @BeforeAll
    static void start() {
        meters.config().meterFilter(RpcHistograms.meterFilter());
        downstreamClient = JupiterClient.builder().appName("relay").interceptor(filter).build();
        impl.downstream = downstreamClient.proxy(Hop.class).address(rpc.address()).timeoutMillis(10_000).build();
        hop = rpc.proxy(Hop.class).timeoutMillis(10_000).build();
    }

    @AfterAll
    static void stop() {
        downstreamClient.close();
        sdk.close();
    }

    @BeforeEach
    void clear() {
        exporter.reset();
        meters.clear();
    }

    @Test
    void oneCallIsAClientSpanAndAServerSpanOfOneTraceWithTheConventionsKeys() {
        Observation parent = Observation.start("test.parent", observations);
        try (Observation.Scope ignored = parent.openScope()) {
            assertThat(hop.greet("ada")).isEqualTo("Hello, ada");
        } finally {
            parent.stop();
        }
        List<SpanData> spans = awaitSpans(3);
        SpanData root = only(spans, "test.parent");
        SpanData client = only(spans, SpanKind.CLIENT);
        SpanData server = only(spans, SpanKind.SERVER);

        assertThat(client.getName()).isEqualTo("hop/greet");
        assertThat(server.getName()).isEqualTo("hop/greet");
        assertThat(client.getTraceId()).isEqualTo(root.getTraceId()).isEqualTo(server.getTraceId());
        assertThat(client.getParentSpanId()).as("the client span's parent is the observation current on the caller")
                .isEqualTo(root.getSpanId());
        assertThat(server.getParentSpanId()).as("the server continues the trace sent in the attachments")
                .isEqualTo(client.getSpanId());

        for (SpanData span : List.of(client, server)) {
            assertThat(span.getAttributes().get(SYSTEM_NAME)).isEqualTo("jupiter");
            assertThat(span.getAttributes().get(SERVICE)).isEqualTo("hop");
            assertThat(span.getAttributes().get(METHOD)).isEqualTo("hop/greet");
            assertThat(span.getAttributes().get(STATUS)).isEqualTo("OK");
            assertThat(span.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
            assertThat(span.getAttributes().get(AttributeKey.stringKey("error.type"))).isNull();
        }
        assertThat(client.getAttributes().get(SIDE)).isEqualTo("consumer");
        assertThat(server.getAttributes().get(SIDE)).isEqualTo("provider");
        assertThat(client.getAttributes().get(SERVER_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(client.getAttributes().get(SERVER_PORT)).isEqualTo(rpc.address().substring(
                rpc.address().lastIndexOf(':') + 1));
        assertThat(server.getAttributes().get(PEER_ADDRESS)).isEqualTo("127.0.0.1");
        assertThat(client.getAttributes().get(INVOKE_ID)).as("the same request on both sides").isNotNull()
                .isEqualTo(server.getAttributes().get(INVOKE_ID));

        Await.until("both timers counted the call", WAIT, () -> count("rpc.server.call.duration", "OK") == 1);
        assertThat(count("rpc.client.call.duration", "OK")).isEqualTo(1);
        Timer timer = meters.get("rpc.client.call.duration").tags("rpc.system.name", "jupiter", "rpc.service", "hop",
                "rpc.method", "hop/greet", "rpc.jupiter.side", "consumer", "rpc.jupiter.group", "test",
                "rpc.jupiter.version", "1.0.0").timer();
        assertThat(timer.count()).isEqualTo(1);
        assertThat(meters.scrape()).as("a percentile histogram for p50/p99")
                .contains("rpc_client_call_duration_seconds_bucket{")
                .contains("rpc_server_call_duration_seconds_bucket{");
    }

    @Test
    void aFailedCallIsAnErrorSpanAndTimedUnderItsStatus() {
        assertThatThrownBy(() -> hop.fail("boom")).hasMessageContaining("boom");
        List<SpanData> spans = awaitSpans(2);
        for (SpanData span : spans) {
            assertThat(span.getStatus().getStatusCode()).as(span.getKind().name()).isEqualTo(StatusCode.ERROR);
            assertThat(span.getAttributes().get(STATUS)).as(span.getKind().name())
                    .isEqualTo("SERVICE_UNEXPECTED_ERROR");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("error.type"))).as(span.getKind().name())
                    .isEqualTo("SERVICE_UNEXPECTED_ERROR");
        }
        Await.until("both timers counted the failure", WAIT,
                () -> count("rpc.server.call.duration", "SERVICE_UNEXPECTED_ERROR") == 1
                        && count("rpc.client.call.duration", "SERVICE_UNEXPECTED_ERROR") == 1);
    }

    @Test
    void callsMadeByAProviderMethodContinueTheTrace() {
        assertThat(hop.relay("bob")).isEqualTo("via Hello, bob");
        List<SpanData> spans = awaitSpans(4);
        assertThat(spans).extracting(SpanData::getTraceId).as("one trace").containsOnly(spans.get(0).getTraceId());
        SpanData outerServer = spans.stream().filter(s -> s.getName().equals("hop/relay")
                && s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
        SpanData innerClient = spans.stream().filter(s -> s.getName().equals("hop/greet")
                && s.getKind() == SpanKind.CLIENT).findFirst().orElseThrow();
        assertThat(innerClient.getParentSpanId()).as("the provider method's call is a child of its server span")
                .isEqualTo(outerServer.getSpanId());
    }

    @Test
    void theNoopRegistryLeavesTheFilterOut() {
        assertThat(new RpcObservationFilter(ObservationRegistry.NOOP).isEnabled()).isFalse();
        assertThat(filter.isEnabled()).isTrue();
    }

    private static List<SpanData> awaitSpans(int count) {
        Await.until(count + " spans exported", WAIT, () -> exporter.getFinishedSpanItems().size() >= count);
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertThat(spans).hasSize(count);
        return spans;
    }

    private static SpanData only(List<SpanData> spans, SpanKind kind) {
        List<SpanData> matching = spans.stream().filter(s -> s.getKind() == kind).toList();
        assertThat(matching).as(kind + " spans").hasSize(1);
        return matching.get(0);
    }

    private static SpanData only(List<SpanData> spans, String name) {
        List<SpanData> matching = spans.stream().filter(s -> s.getName().equals(name)).toList();
        assertThat(matching).as(name + " spans").hasSize(1);
        return matching.get(0);
    }

    private static long count(String timer, String status) {
        Timer found = meters.find(timer).tag("rpc.response.status_code", status).timer();
        return found == null ? 0 : found.count();
    }
}
