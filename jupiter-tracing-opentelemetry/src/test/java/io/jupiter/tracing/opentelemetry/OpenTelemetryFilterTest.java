package io.jupiter.tracing.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.stream.StreamIterator;
import io.jupiter.rpc.stream.Streams;
import io.jupiter.serialization.SerializerType;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The service-loaded filter with the OpenTelemetry SDK installed globally and its in-memory exporter, over real
 * sockets: client and server spans, their parent links across two hops, and errors. The server and the first hop's
 * client come from the test kit's {@link JupiterServerExtension} (TCP); the second hop's client is the provider's
 * own, built here.
 */
class OpenTelemetryFilterTest {

    private static final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    /** Installed before the extension builds server and client: the service-loaded filter is then in both chains. */
    private static final OpenTelemetrySdk sdk = installSdk();
    private static final HopService.Impl impl = new HopService.Impl();

    @RegisterExtension
    static final JupiterServerExtension server = JupiterServerExtension.builder()
            .service(impl)
            .tcp()
            .server(b -> b.serializers(SerializerType.PROTOSTUFF))
            .client(b -> b.appName("tracing-test"))
            .build();

    private static JupiterClient downstreamClient;
    private static HopService hop;

    private static OpenTelemetrySdk installSdk() {
        GlobalOpenTelemetry.resetForTest();
        return OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
                .buildAndRegisterGlobal();
    }

    @BeforeAll
    static void start() {
        downstreamClient = JupiterClient.builder().appName("hop").build();
        impl.downstream = downstreamClient.proxy(HopService.class).address(server.address()).timeoutMillis(10_000)
                .build();
        hop = server.proxy(HopService.class).timeoutMillis(10_000).build();
    }

    @AfterAll
    static void stop() {
        // Before the extension stops the server: it fails the class on a client left open.
        downstreamClient.close();
        sdk.close();
        GlobalOpenTelemetry.resetForTest();
    }

    @BeforeEach
    void clear() {
        exporter.reset();
    }

    @Test
    void twoHopsMakeOneTraceOfAlternatingClientAndServerSpans() {
        String currentInMethods = hop.hop(1);

        List<SpanData> spans = awaitSpans(4);
        SpanData client1 = only(spans, SpanKind.CLIENT, "tracing-test");
        SpanData server1 = only(spans, SpanKind.SERVER, "tracing-test");
        SpanData client2 = only(spans, SpanKind.CLIENT, "hop");
        SpanData server2 = only(spans, SpanKind.SERVER, "hop");

        assertThat(spans).extracting(SpanData::getTraceId).containsOnly(client1.getTraceId());
        assertThat(client1.getParentSpanContext().isValid()).isFalse();
        assertThat(server1.getParentSpanId()).isEqualTo(client1.getSpanId());
        assertThat(client2.getParentSpanId()).isEqualTo(server1.getSpanId());
        assertThat(server2.getParentSpanId()).isEqualTo(client2.getSpanId());
        assertThat(server1.getParentSpanContext().isRemote()).isTrue();
        // Each provider method ran with its server span current.
        assertThat(currentInMethods).isEqualTo(server1.getSpanId() + ',' + server2.getSpanId());

        assertThat(client1.getName()).isEqualTo("hop/hop");
        // semconv 1.40.0
        assertThat(client1.getAttributes().get(AttributeKey.stringKey("rpc.system.name"))).isEqualTo("jupiter");
        assertThat(client1.getAttributes().get(AttributeKey.stringKey("rpc.method"))).isEqualTo("hop/hop");
        assertThat(client1.getAttributes().get(AttributeKey.stringKey("rpc.response.status_code"))).isEqualTo("OK");
        assertThat(client1.getAttributes().get(AttributeKey.stringKey("error.type"))).isNull();
        assertThat(client1.getAttributes().get(AttributeKey.longKey("rpc.jupiter.invoke_id"))).isPositive()
                .isEqualTo(server1.getAttributes().get(AttributeKey.longKey("rpc.jupiter.invoke_id")));
        // kept for one release
        assertThat(client1.getAttributes().get(AttributeKey.stringKey("rpc.system"))).isEqualTo("jupiter");
        assertThat(client1.getAttributes().get(AttributeKey.stringKey("rpc.service"))).isEqualTo("hop");
        assertThat(client1.getAttributes().get(AttributeKey.stringKey("rpc.jupiter.status"))).isEqualTo("OK");
        assertThat(client1.getAttributes().get(AttributeKey.longKey("server.port"))).isPositive();
        assertThat(server1.getAttributes().get(AttributeKey.stringKey("network.peer.address")))
                .isEqualTo("127.0.0.1");
        assertThat(spans).allSatisfy(span -> assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET));
    }

    @Test
    void theCallersCurrentSpanIsTheParentOfTheClientSpan() {
        Span parent = sdk.getTracer("test").spanBuilder("caller").startSpan();
        try (Scope ignored = parent.makeCurrent()) {
            hop.hop(0);
        } finally {
            parent.end();
        }
        List<SpanData> spans = awaitSpans(3);
        SpanData client1 = only(spans, SpanKind.CLIENT, "tracing-test");
        assertThat(client1.getParentSpanId()).isEqualTo(parent.getSpanContext().getSpanId());
        assertThat(only(spans, SpanKind.SERVER, "tracing-test").getTraceId())
                .isEqualTo(parent.getSpanContext().getTraceId());
    }

    @Test
    void aFailedCallEndsBothSpansWithAnError() {
        assertThatThrownBy(() -> hop.fail("boom")).hasMessageContaining("boom");
        List<SpanData> spans = awaitSpans(2);
        for (SpanData span : spans) {
            assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(span.getAttributes().get(AttributeKey.stringKey("rpc.response.status_code")))
                    .isEqualTo("SERVICE_UNEXPECTED_ERROR");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("error.type")))
                    .isEqualTo("SERVICE_UNEXPECTED_ERROR");
            assertThat(span.getEvents()).extracting(e -> e.getName()).contains("exception");
        }
    }

    @Test
    void theServiceLoadedFilterTakesPartOnlyWhenAGlobalOpenTelemetryIsInstalled() {
        OpenTelemetryFilter loaded = new OpenTelemetryFilter();
        assertThat(loaded.isEnabled()).isTrue();
        GlobalOpenTelemetry.resetForTest();
        try {
            assertThat(loaded.isEnabled()).isFalse();
            assertThat(new OpenTelemetryFilter(sdk).isEnabled()).isTrue();
        } finally {
            GlobalOpenTelemetry.set(sdk);
        }
    }

    private static SpanData only(List<SpanData> spans, SpanKind kind, String app) {
        List<SpanData> matching = spans.stream().filter(s -> s.getKind() == kind)
                .filter(s -> app.equals(s.getAttributes().get(AttributeKey.stringKey("rpc.jupiter.app"))))
                .collect(Collectors.toList());
        assertThat(matching).as(kind + " spans of " + app + " in " + spans).hasSize(1);
        return matching.get(0);
    }

    @Test
    void aStreamIsOneClientAndOneServerSpanOfOneTraceFromItsOpenToItsEnd() {
        List<Integer> read;
        try (StreamIterator<Integer> it = Streams.iterate(hop.countdown(3))) {
            read = it.stream().toList();
        }
        assertThat(read).containsExactly(3, 2, 1);

        List<SpanData> spans = awaitSpans(2);
        SpanData client = only(spans, SpanKind.CLIENT, "tracing-test");
        SpanData server = only(spans, SpanKind.SERVER, "tracing-test");
        assertThat(server.getTraceId()).isEqualTo(client.getTraceId());
        assertThat(server.getParentSpanId()).as("the trace context travelled in the open frame")
                .isEqualTo(client.getSpanId());
        for (SpanData span : List.of(client, server)) {
            assertThat(span.getName()).isEqualTo("hop/countdown");
            assertThat(span.getAttributes().get(AttributeKey.booleanKey("rpc.jupiter.stream"))).isTrue();
            assertThat(span.getAttributes().get(AttributeKey.stringKey("rpc.response.status_code"))).isEqualTo("OK");
        }
    }

    /** Server spans end after the response is written, so they may be exported a moment after the call returned. */
    private static List<SpanData> awaitSpans(int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<SpanData> spans;
        while ((spans = exporter.getFinishedSpanItems()).size() < count) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("expected " + count + " spans within 10 s, got " + spans);
            }
            Thread.yield();
        }
        spans = exporter.getFinishedSpanItems().stream().filter(s -> !s.getName().equals("caller"))
                .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos)).collect(Collectors.toList());
        assertThat(spans).hasSizeGreaterThanOrEqualTo(count - 1);
        return spans;
    }
}
