package io.jupiter.micrometer.observation;

import static org.assertj.core.api.Assertions.assertThat;

import brave.Span;
import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.Await;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The same filter with micrometer-tracing's Brave bridge and its W3C propagation, over TCP on 127.0.0.1: the request
 * carries a W3C {@code traceparent} attachment and the provider's span continues the caller's trace.
 */
class BraveBridgeTest {

    private static final List<MutableSpan> spans = new CopyOnWriteArrayList<>();
    /** The {@code traceparent} attachment each served request arrived with. */
    private static final List<String> traceparents = new CopyOnWriteArrayList<>();
    private static final Tracing tracing = Tracing.newBuilder()
            .localServiceName("brave-test")
            .traceId128Bit(true)
            .currentTraceContext(ThreadLocalCurrentTraceContext.create())
            .propagationFactory(new W3CPropagation())
            .addSpanHandler(new SpanHandler() {
                @Override
                public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                    spans.add(span);
                    return true;
                }
            })
            .build();
    private static final RpcObservationFilter filter = new RpcObservationFilter(observations());

    @RegisterExtension
    static final JupiterServerExtension rpc = JupiterServerExtension.builder()
            .service(new Hop.Impl())
            .tcp()
            .server(b -> b.serializers(SerializerType.PROTOSTUFF).interceptor(filter).interceptor(new Interceptor() {
                @Override
                public void beforeInvoke(Invocation invocation) {
                    traceparents.add(String.valueOf(invocation.attachment("traceparent")));
                }
            }))
            .client(b -> b.appName("brave").interceptor(filter))
            .build();

    private static ObservationRegistry observations() {
        BraveTracer tracer = new BraveTracer(tracing.tracer(),
                new BraveCurrentTraceContext(tracing.currentTraceContext()), new BraveBaggageManager());
        BravePropagator propagator = new BravePropagator(tracing);
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
        return registry;
    }

    @AfterAll
    static void close() {
        tracing.close();
    }

    @Test
    void theTraceReachesTheProviderAsAW3CTraceparent() {
        assertThat(rpc.proxy(Hop.class).timeoutMillis(10_000).build().greet("ada")).isEqualTo("Hello, ada");
        Await.until("the client and the server span ended", Duration.ofSeconds(10), () -> spans.size() >= 2);
        assertThat(spans).hasSize(2);
        MutableSpan client = spans.stream().filter(s -> s.kind() == Span.Kind.CLIENT).findFirst().orElseThrow();
        MutableSpan server = spans.stream().filter(s -> s.kind() == Span.Kind.SERVER).findFirst().orElseThrow();

        assertThat(traceparents).singleElement().asString()
                .as("W3C trace context: version-traceid-spanid-flags")
                .matches("00-" + client.traceId() + "-" + client.id() + "-0[01]");
        assertThat(server.traceId()).isEqualTo(client.traceId());
        assertThat(server.parentId()).isEqualTo(client.id());
        for (MutableSpan span : List.of(client, server)) {
            assertThat(span.name()).isEqualTo("hop/greet");
            assertThat(span.tag("rpc.system.name")).isEqualTo("jupiter");
            assertThat(span.tag("rpc.method")).isEqualTo("hop/greet");
            assertThat(span.tag("rpc.response.status_code")).isEqualTo("OK");
        }
    }
}
