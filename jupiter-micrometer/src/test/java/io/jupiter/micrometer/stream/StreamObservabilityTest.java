package io.jupiter.micrometer.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.micrometer.JupiterMeterBinder;
import io.jupiter.micrometer.observation.RpcObservationDocumentation;
import io.jupiter.micrometer.observation.RpcObservationFilter;
import io.jupiter.rpc.stream.StreamIterator;
import io.jupiter.rpc.stream.Streams;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.Await;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Stream metrics and tracing on a real server and client over TCP on 127.0.0.1: the binder's stream meters in a
 * {@link SimpleMeterRegistry} (and their Prometheus names in a Prometheus registry), the Observation filter on both
 * sides with Micrometer's meter handler and micrometer-tracing's OpenTelemetry bridge, spans kept by the SDK's
 * in-memory exporter. Each test uses a method of its own, so the meters of one do not count another's streams.
 */
class StreamObservabilityTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String METHOD = "rpc.method";
    private static final String STATUS = "rpc.response.status_code";

    private static final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private static final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter))
                    .build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private static final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private static final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private static final ObservationRegistry observations = observationRegistry();
    private static final RpcObservationFilter filter = new RpcObservationFilter(observations);
    private static final Ticker.Impl impl = new Ticker.Impl();

    @RegisterExtension
    static final JupiterServerExtension rpc = JupiterServerExtension.builder()
            .service(impl)
            .tcp()
            .server(b -> b.serializers(SerializerType.PROTOSTUFF).interceptor(filter))
            .client(b -> b.appName("watcher").interceptor(filter))
            .build();

    private static JupiterMeterBinder binder;
    private static Ticker ticker;

    private static ObservationRegistry observationRegistry() {
        OtelCurrentTraceContext current = new OtelCurrentTraceContext();
        OtelTracer tracer = new OtelTracer(sdk.getTracer("test"), current, event -> { },
                new OtelBaggageManager(current, List.of(), List.of()));
        OtelPropagator propagator = new OtelPropagator(sdk.getPropagators(), sdk.getTracer("test"));
        ObservationRegistry registry = ObservationRegistry.create();
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
        binder = JupiterMeterBinder.of(rpc.server(), rpc.client());
        binder.bindTo(meters);
        binder.bindTo(prometheus);
        ticker = rpc.proxy(Ticker.class).timeoutMillis(10_000).build();
    }

    @AfterAll
    static void stop() {
        binder.close();
        sdk.close();
    }

    @Test
    void messagesAndBytesEachWayMatchWhatWasSentAndTheStreamEndsOkOnBothSides() {
        int lines = 25;
        List<String> received = new ArrayList<>();
        long textBytes = 0;
        try (StreamIterator<String> it = Streams.iterate(ticker.echo(Streams.produce(sink -> {
            for (int i = 0; i < lines; i++) {
                sink.send("line " + "y".repeat(i * 7));
            }
        })))) {
            it.forEachRemaining(received::add);
        }
        for (String line : received) {
            textBytes += line.length();
        }
        assertThat(received).hasSize(lines);
        Await.until("both sides saw the echo stream end", WAIT,
                () -> ended("provider", "echo", "OK") == 1 && ended("consumer", "echo", "OK") == 1);

        // The consumer's lines went one way, the provider's echo the other: counted on both ends, alike.
        assertThat(counter(JupiterMeterBinder.CLIENT_STREAM_MESSAGES, "echo", JupiterMeterBinder.SENT))
                .isEqualTo(lines);
        assertThat(counter(JupiterMeterBinder.SERVER_STREAM_MESSAGES, "echo", JupiterMeterBinder.RECEIVED))
                .isEqualTo(lines);
        assertThat(counter(JupiterMeterBinder.SERVER_STREAM_MESSAGES, "echo", JupiterMeterBinder.SENT))
                .isEqualTo(lines);
        assertThat(counter(JupiterMeterBinder.CLIENT_STREAM_MESSAGES, "echo", JupiterMeterBinder.RECEIVED))
                .isEqualTo(lines);
        double up = counter(JupiterMeterBinder.CLIENT_STREAM_BYTES, "echo", JupiterMeterBinder.SENT);
        double down = counter(JupiterMeterBinder.SERVER_STREAM_BYTES, "echo", JupiterMeterBinder.SENT);
        assertThat(counter(JupiterMeterBinder.SERVER_STREAM_BYTES, "echo", JupiterMeterBinder.RECEIVED))
                .isEqualTo(up);
        assertThat(counter(JupiterMeterBinder.CLIENT_STREAM_BYTES, "echo", JupiterMeterBinder.RECEIVED))
                .isEqualTo(down);
        // Each body is the string and a few bytes of protostuff framing around it (its length, the message's type).
        assertThat(up).isEqualTo(down).isBetween((double) textBytes + lines, (double) textBytes + 16.0 * lines);
        assertThat(open(JupiterMeterBinder.SERVER_STREAMS_OPEN, "echo")).isZero();
        assertThat(open(JupiterMeterBinder.CLIENT_STREAMS_OPEN, "echo")).isZero();
    }

    @Test
    void theOpenStreamsGaugeGoesUpWhileAStreamIsOpenAndBackToZeroAfterItsEndAndAfterACancel() {
        // Ended: the stream runs to its end (other tests read ticks streams too: counted from here).
        long serverOk = ended("provider", "ticks", "OK");
        long clientOk = ended("consumer", "ticks", "OK");
        List<String> ticks;
        try (StreamIterator<String> it = Streams.iterate(ticker.ticks(5, 10))) {
            ticks = it.stream().toList();
        }
        assertThat(ticks).hasSize(5);
        Await.until("both sides saw the ticks stream end", WAIT,
                () -> ended("provider", "ticks", "OK") == serverOk + 1
                        && ended("consumer", "ticks", "OK") == clientOk + 1);
        assertThat(open(JupiterMeterBinder.SERVER_STREAMS_OPEN, "ticks")).isZero();
        assertThat(open(JupiterMeterBinder.CLIENT_STREAMS_OPEN, "ticks")).isZero();

        // Cancelled: open while it is read, 0 once the reader closed it.
        try (StreamIterator<String> it = Streams.iterate(ticker.forever())) {
            for (int i = 0; i < 3; i++) {
                assertThat(it.next()).startsWith("tick ");
            }
            Await.until("one stream open on both sides", WAIT,
                    () -> open(JupiterMeterBinder.SERVER_STREAMS_OPEN, "forever") == 1
                            && open(JupiterMeterBinder.CLIENT_STREAMS_OPEN, "forever") == 1);
        }
        Await.until("the cancelled stream is no longer open on either side", WAIT,
                () -> open(JupiterMeterBinder.SERVER_STREAMS_OPEN, "forever") == 0
                        && open(JupiterMeterBinder.CLIENT_STREAMS_OPEN, "forever") == 0);
        Await.until("both sides counted the end STREAM_CANCELLED", WAIT,
                () -> ended("provider", "forever", "STREAM_CANCELLED") == 1
                        && ended("consumer", "forever", "STREAM_CANCELLED") == 1);
        assertThat(meters.get(JupiterMeterBinder.SERVER_STREAM_DURATION).tag(METHOD, "ticker/forever")
                .tag(STATUS, "STREAM_CANCELLED").timer().totalTime(TimeUnit.NANOSECONDS))
                .as("the cancelled stream was open while three ticks were read").isPositive();
    }

    @Test
    void aSlowConsumerUnderDropOldestCountsEachDrop() throws Exception {
        int count = 50;
        List<Integer> received = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
        ticker.latest(count).subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                subscription.set(s);
                s.request(1); // one message, then nothing until the producer is done
            }

            @Override
            public void onNext(Integer item) {
                received.add(item);
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                done.complete(null);
            }
        });
        assertThat(impl.latestSent.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the producer finished").isTrue();
        subscription.get().request(Long.MAX_VALUE);
        done.get(WAIT.toSeconds(), TimeUnit.SECONDS);

        // The first against the reader's one credit, the last 4 from the buffer; everything between was dropped.
        assertThat(received).containsExactly(0, count - 4, count - 3, count - 2, count - 1);
        assertThat(meters.get(JupiterMeterBinder.SERVER_STREAM_SLOW_CONSUMER).tag(METHOD, "ticker/latest")
                .tag(JupiterMeterBinder.POLICY_TAG, "DROP_OLDEST").counter().count()).isEqualTo(count - 5);
        assertThat(meters.get(JupiterMeterBinder.SERVER_STREAM_SLOW_CONSUMER).tag(METHOD, "ticker/latest")
                .tag(JupiterMeterBinder.POLICY_TAG, "DROP_NEWEST").counter().count()).isZero();
        assertThat(counter(JupiterMeterBinder.SERVER_STREAM_MESSAGES, "latest", JupiterMeterBinder.SENT))
                .isEqualTo(5);
        assertThat(counter(JupiterMeterBinder.CLIENT_STREAM_MESSAGES, "latest", JupiterMeterBinder.RECEIVED))
                .isEqualTo(5);
        Await.until("both sides counted the end", WAIT,
                () -> ended("provider", "latest", "OK") == 1 && ended("consumer", "latest", "OK") == 1);
    }

    @Test
    void aStreamIsOneTraceAcrossConsumerAndProviderWithStreamObservations() {
        Observation parent = Observation.start("test.stream.parent", observations);
        List<String> ticks;
        try (Observation.Scope ignored = parent.openScope();
             StreamIterator<String> it = Streams.iterate(ticker.ticks(3, 4))) {
            ticks = it.stream().toList();
        } finally {
            parent.stop();
        }
        assertThat(ticks).containsExactly("xxxx", "xxxx", "xxxx");
        String traceId = awaitSpan("test.stream.parent", SpanKind.INTERNAL).getTraceId();
        SpanData client = awaitSpan("ticker/ticks", SpanKind.CLIENT, traceId);
        SpanData server = awaitSpan("ticker/ticks", SpanKind.SERVER, traceId);

        assertThat(server.getTraceId()).as("the provider's stream continues the consumer's trace")
                .isEqualTo(client.getTraceId()).isEqualTo(traceId);
        assertThat(server.getParentSpanId()).isEqualTo(client.getSpanId());
        assertThat(client.getAttributes().get(AttributeKey.stringKey(STATUS))).isEqualTo("OK");
        assertThat(server.getAttributes().get(AttributeKey.stringKey(STATUS))).isEqualTo("OK");
        assertThat(server.getAttributes().get(AttributeKey.stringKey("rpc.jupiter.invoke_id")))
                .as("the stream id").isNotNull();
        assertThat(client.getAttributes().get(AttributeKey.stringKey("rpc.jupiter.invoke_id")))
                .as("the same stream id on the client's span")
                .isEqualTo(server.getAttributes().get(AttributeKey.stringKey("rpc.jupiter.invoke_id")));
        assertThat(client.getAttributes().get(AttributeKey.stringKey("server.address"))).isEqualTo("127.0.0.1");
        assertThat(client.getAttributes().get(AttributeKey.stringKey("server.port"))).isNotNull();

        // The observations' timers are the streams' own, not the call timers.
        Await.until("the stream observations' timers", WAIT,
                () -> streamObservations(RpcObservationDocumentation.SERVER_STREAM_NAME) >= 1
                        && streamObservations(RpcObservationDocumentation.CLIENT_STREAM_NAME) >= 1);
        assertThat(meters.find(RpcObservationDocumentation.CLIENT_NAME).tag(METHOD, "ticker/ticks").timers())
                .isEmpty();
        assertThat(meters.find(RpcObservationDocumentation.SERVER_NAME).tag(METHOD, "ticker/ticks").timers())
                .isEmpty();
    }

    @Test
    void theStreamMetersHaveTheirDocumentedPrometheusNames() {
        try (StreamIterator<String> it = Streams.iterate(ticker.ticks(2, 3))) {
            assertThat(it.stream().count()).isEqualTo(2);
        }
        Await.until("a ticks stream ended on the provider", WAIT, () -> ended("provider", "ticks", "OK") >= 1);
        String scrape = prometheus.scrape();
        for (String side : new String[] {"server", "client"}) {
            assertThat(scrape).contains(
                    "rpc_jupiter_" + side + "_streams_open{",
                    "rpc_jupiter_" + side + "_stream_messages_total{",
                    "rpc_jupiter_" + side + "_stream_bytes_total{",
                    "rpc_jupiter_" + side + "_stream_slow_consumer_total{",
                    "rpc_jupiter_" + side + "_stream_duration_seconds_count{");
        }
        assertThat(scrape).contains("rpc_method=\"ticker/ticks\"", "rpc_jupiter_direction=\"sent\"",
                "rpc_jupiter_policy=\"DROP_OLDEST\"", "rpc_system_name=\"jupiter\"");
    }

    private static long ended(String side, String method, String status) {
        Timer timer = meters.find(side.equals("provider") ? JupiterMeterBinder.SERVER_STREAM_DURATION
                : JupiterMeterBinder.CLIENT_STREAM_DURATION).tag(METHOD, "ticker/" + method).tag(STATUS, status)
                .timer();
        return timer == null ? 0 : timer.count();
    }

    private static double counter(String name, String method, String direction) {
        Counter counter = meters.find(name).tag(METHOD, "ticker/" + method)
                .tag(JupiterMeterBinder.DIRECTION_TAG, direction).counter();
        return counter == null ? 0 : counter.count();
    }

    private static double open(String name, String method) {
        Gauge gauge = meters.find(name).tag(METHOD, "ticker/" + method).gauge();
        return gauge == null ? -1 : gauge.value();
    }

    private static long streamObservations(String name) {
        Timer timer = meters.find(name).tag(METHOD, "ticker/ticks").tag(STATUS, "OK").timer();
        return timer == null ? 0 : timer.count();
    }

    private static SpanData awaitSpan(String name, SpanKind kind) {
        return awaitSpan(name, kind, null);
    }

    private static SpanData awaitSpan(String name, SpanKind kind, String traceId) {
        AtomicReference<SpanData> found = new AtomicReference<>();
        Await.until("a " + kind + " span " + name, WAIT, () -> {
            for (SpanData span : exporter.getFinishedSpanItems()) {
                if (span.getName().equals(name) && span.getKind() == kind
                        && (traceId == null || span.getTraceId().equals(traceId))) {
                    found.set(span);
                    return true;
                }
            }
            return false;
        });
        return found.get();
    }
}
