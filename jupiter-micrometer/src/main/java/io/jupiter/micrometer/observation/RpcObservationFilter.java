package io.jupiter.micrometer.observation;

import io.jupiter.common.Requires;
import io.jupiter.rpc.filter.Filter;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.filter.Side;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * Observes calls with Micrometer's Observation API: one {@link Observation} per call a client proxy makes
 * ({@link RpcObservationDocumentation#CLIENT}, context {@link RpcClientContext}) and per request a server serves
 * ({@link RpcObservationDocumentation#SERVER}, context {@link RpcServerContext}); one per stream on each side
 * ({@link RpcObservationDocumentation#CLIENT_STREAM}, {@link RpcObservationDocumentation#SERVER_STREAM}, the same
 * contexts; the trace context travels in the open frame), from its open to its end, stopped with its final status.
 * The conventions given to the constructor apply to calls; streams use the stream defaults. What the observations
 * become is up to the registry's handlers: a timer per method and status with Micrometer's meter handler, spans with
 * micrometer-tracing's OpenTelemetry or Brave bridge, which carry the trace context to the provider in the request's
 * attachments (W3C {@code traceparent} and {@code tracestate} with OpenTelemetry's default propagator).
 *
 * <p>One line on each builder:
 * <pre>{@code
 * RpcObservationFilter observed = new RpcObservationFilter(observationRegistry);
 * JupiterServer.builder().interceptor(observed)...
 * JupiterClient.builder().interceptor(observed)...
 * }</pre>
 * The Spring Boot starter does this when the application has an {@link ObservationRegistry} bean.
 *
 * <p>The client observation's parent is the observation current on the calling thread (in a web application, the
 * HTTP request's); the server observation is current while the provider method runs, so the calls it makes continue
 * the trace. With {@link ObservationRegistry#NOOP} the filter is left out of the call path altogether; with a
 * registry that has no handler yet, each call costs one check.
 */
public final class RpcObservationFilter implements Filter {

    /** Outermost, as the OpenTelemetry filter: the observation covers the other filters, flow control's refusals. */
    public static final int PRIORITY = 20_000;

    /** The invocation attribute holding the call's observation. */
    private static final String OBSERVATION = RpcObservationFilter.class.getName() + ".observation";

    private final ObservationRegistry registry;
    private final RpcClientObservationConvention clientConvention;
    private final RpcServerObservationConvention serverConvention;

    /** Observes with the default conventions. */
    public RpcObservationFilter(ObservationRegistry registry) {
        this(registry, null, null);
    }

    /**
     * Observes with the given conventions; {@code null} for the default of that side. A convention registered in
     * the registry ({@code observationConfig().observationConvention(...)}) wins over both.
     */
    public RpcObservationFilter(ObservationRegistry registry, RpcClientObservationConvention clientConvention,
                                RpcServerObservationConvention serverConvention) {
        this.registry = Requires.notNull(registry, "registry");
        this.clientConvention = clientConvention;
        this.serverConvention = serverConvention;
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    public boolean isEnabled() {
        return registry != ObservationRegistry.NOOP;
    }

    @Override
    public void beforeInvoke(Invocation invocation) {
        if (registry.isNoop()) {
            return;
        }
        Observation observation;
        boolean stream = invocation.isStream();
        if (invocation.side() == Side.CONSUMER) {
            RpcClientContext context = new RpcClientContext(invocation);
            observation = stream
                    ? RpcObservationDocumentation.CLIENT_STREAM.observation(null,
                            DefaultRpcClientStreamObservationConvention.INSTANCE, () -> context, registry)
                    : RpcObservationDocumentation.CLIENT.observation(clientConvention,
                            DefaultRpcClientObservationConvention.INSTANCE, () -> context, registry);
        } else {
            RpcServerContext context = new RpcServerContext(invocation);
            observation = stream
                    ? RpcObservationDocumentation.SERVER_STREAM.observation(null,
                            DefaultRpcServerStreamObservationConvention.INSTANCE, () -> context, registry)
                    : RpcObservationDocumentation.SERVER.observation(serverConvention,
                            DefaultRpcServerObservationConvention.INSTANCE, () -> context, registry);
        }
        invocation.attribute(OBSERVATION, observation.start());
    }

    @Override
    public MethodScope enterMethod(Invocation invocation) {
        Observation observation = (Observation) invocation.attribute(OBSERVATION);
        if (observation == null) {
            return null;
        }
        Observation.Scope scope = observation.openScope();
        return scope::close;
    }

    @Override
    public void afterInvoke(Invocation invocation, Object result, Throwable error) {
        Observation observation = (Observation) invocation.attribute(OBSERVATION);
        if (observation == null) {
            return;
        }
        if (observation.getContext() instanceof RpcClientContext client) {
            client.setResponse(result);
        } else if (observation.getContext() instanceof RpcServerContext server) {
            server.setResponse(result);
        }
        if (error != null) {
            observation.error(error);
        }
        observation.stop();
    }
}
