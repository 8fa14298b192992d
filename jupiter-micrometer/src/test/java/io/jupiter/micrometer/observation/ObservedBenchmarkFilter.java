package io.jupiter.micrometer.observation;

import io.jupiter.rpc.filter.Filter;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.filter.Side;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
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
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.Collection;
import java.util.List;

/**
 * Not a test: the {@link RpcObservationFilter} as a service-loaded filter, for measuring its cost with the load
 * driver (bench/observation-cost.sh puts it on the benchmark's class path). The registry is what a Spring Boot
 * application with Actuator, the Prometheus registry and micrometer-tracing's OpenTelemetry bridge has: the meter
 * handler on a Prometheus registry with the call timers' histograms, and, with
 * {@code -Djupiter.bench.observation=tracing} (the default), the tracing handlers on an SDK sampling
 * {@code -Djupiter.bench.observation.sampling} (1.0) of the
 * traces, batched to an exporter that drops them; {@code metrics} leaves tracing out.
 */
public final class ObservedBenchmarkFilter implements Filter {

    private static final RpcObservationFilter DELEGATE = new RpcObservationFilter(registry());

    private static ObservationRegistry registry() {
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        meters.config().meterFilter(RpcHistograms.meterFilter());
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        String mode = System.getProperty("jupiter.bench.observation", "tracing");
        if (mode.equals("tracing")) {
            double ratio = Double.parseDouble(System.getProperty("jupiter.bench.observation.sampling", "1.0"));
            OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder()
                            .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(ratio)))
                            .addSpanProcessor(BatchSpanProcessor.builder(new DroppingExporter()).build()).build())
                    .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                    .build();
            OtelCurrentTraceContext current = new OtelCurrentTraceContext();
            OtelTracer tracer = new OtelTracer(sdk.getTracer("bench"), current, event -> { },
                    new OtelBaggageManager(current, List.of(), List.of()));
            OtelPropagator propagator = new OtelPropagator(sdk.getPropagators(), sdk.getTracer("bench"));
            registry.observationConfig().observationHandler(
                    new ObservationHandler.FirstMatchingCompositeObservationHandler(
                            new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                            new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                            new DefaultTracingObservationHandler(tracer)));
        } else if (!mode.equals("metrics")) {
            throw new IllegalArgumentException("jupiter.bench.observation=" + mode + " (expected: tracing|metrics)");
        }
        System.err.println("observation filter on: " + mode);
        return registry;
    }

    @Override
    public int priority() {
        return DELEGATE.priority();
    }

    @Override
    public Side side() {
        return DELEGATE.side();
    }

    @Override
    public void beforeInvoke(Invocation invocation) {
        DELEGATE.beforeInvoke(invocation);
    }

    @Override
    public MethodScope enterMethod(Invocation invocation) {
        return DELEGATE.enterMethod(invocation);
    }

    @Override
    public void afterInvoke(Invocation invocation, Object result, Throwable error) {
        DELEGATE.afterInvoke(invocation, result, error);
    }

    /** Takes every batch and keeps nothing. */
    private static final class DroppingExporter implements SpanExporter {

        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
