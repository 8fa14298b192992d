package io.jupiter.tracing.opentelemetry;

import io.jupiter.common.Requires;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.filter.Filter;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.filter.Side;
import io.jupiter.transport.Status;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Traces calls with OpenTelemetry: a {@link SpanKind#CLIENT} span around each call a proxy makes and a
 * {@link SpanKind#SERVER} span around each request a server serves, linked through the W3C trace context
 * ({@code traceparent}, {@code tracestate}) carried in the request's attachments.
 *
 * <p>Loaded with {@link java.util.ServiceLoader} from this module; it then uses the global OpenTelemetry and takes part
 * only if one was installed ({@link GlobalOpenTelemetry#set}, the SDK's {@code buildAndRegisterGlobal()}, or the Java
 * agent) before the proxy is built or the service registered. Without an SDK it is left out of the call path
 * altogether. To use a non-global instance, register {@code new OpenTelemetryFilter(openTelemetry)} as an interceptor
 * instead (and install no global one, or spans are made twice).
 *
 * <p>The client span's parent is the context current on the calling thread; in a provider method that is the server
 * span of the request being served (made current for the method's own code too), so calls made downstream join the
 * same trace. Span names and attributes follow OpenTelemetry's RPC semantic conventions of semconv 1.40.0 (RPC as
 * a release candidate): span name and {@code rpc.method} {@code {service}/{method}}, {@code rpc.system.name=jupiter},
 * {@code rpc.response.status_code} (the Jupiter status), {@code error.type} on failure, {@code server.address} and
 * {@code server.port} (client), {@code network.peer.address} and {@code network.peer.port} (server); plus the group,
 * version, consumer application and invoke id under {@code rpc.jupiter.*}. A stream is one span per side from its
 * open to its end, with the trace context carried in the open frame, and {@code rpc.jupiter.stream=true}. Kept for
 * one release, deprecated: semconv 1.37.0's {@code rpc.system} and {@code rpc.service}, and
 * {@code rpc.jupiter.status} (see docs/observability.md).
 */
public final class OpenTelemetryFilter implements Filter {

    /** Outermost: the spans cover the other filters too, including a refusal by flow control. */
    public static final int PRIORITY = 20_000;

    static final String INSTRUMENTATION_NAME = "io.jupiter.rpc";
    private static final AttributeKey<String> RPC_SYSTEM_NAME = AttributeKey.stringKey("rpc.system.name");
    private static final AttributeKey<String> STATUS_CODE = AttributeKey.stringKey("rpc.response.status_code");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<Long> INVOKE_ID = AttributeKey.longKey("rpc.jupiter.invoke_id");
    /** Deprecated keys (semconv 1.37.0 and Jupiter's first), kept for one release. */
    private static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
    private static final AttributeKey<String> RPC_SERVICE = AttributeKey.stringKey("rpc.service");
    private static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
    private static final AttributeKey<String> GROUP = AttributeKey.stringKey("rpc.jupiter.group");
    private static final AttributeKey<String> VERSION = AttributeKey.stringKey("rpc.jupiter.version");
    private static final AttributeKey<String> STATUS = AttributeKey.stringKey("rpc.jupiter.status");
    private static final AttributeKey<String> APP = AttributeKey.stringKey("rpc.jupiter.app");
    private static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    private static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    private static final AttributeKey<String> PEER_ADDRESS = AttributeKey.stringKey("network.peer.address");
    private static final AttributeKey<Long> PEER_PORT = AttributeKey.longKey("network.peer.port");
    /** {@code true} on the span of a stream (from its open to its end); absent on a call's. */
    private static final AttributeKey<Boolean> STREAM = AttributeKey.booleanKey("rpc.jupiter.stream");
    private static final Attributes STREAM_ATTRIBUTES = Attributes.of(STREAM, true);
    /** The invocation attribute holding the call's span context. */
    private static final String CONTEXT = OpenTelemetryFilter.class.getName() + ".context";

    private static final TextMapPropagator PROPAGATOR = W3CTraceContextPropagator.getInstance();
    private static final TextMapSetter<Invocation> SETTER = (invocation, key, value) -> invocation.attach(key, value);
    private static final TextMapGetter<Invocation> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Invocation invocation) {
            return invocation.attachments().keySet();
        }

        @Override
        public String get(Invocation invocation, String key) {
            return invocation == null ? null : invocation.attachment(key);
        }
    };

    /** {@code null}: the global one. */
    private final OpenTelemetry explicit;
    private volatile TracerOf tracer;

    /** Uses the global OpenTelemetry (the {@link java.util.ServiceLoader} constructor). */
    public OpenTelemetryFilter() {
        this.explicit = null;
    }

    /** Uses {@code openTelemetry}; register the filter as an interceptor. */
    public OpenTelemetryFilter(OpenTelemetry openTelemetry) {
        this.explicit = Requires.notNull(openTelemetry, "openTelemetry");
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    public boolean isEnabled() {
        // Never GlobalOpenTelemetry.get() here: it would fix the global to a no-op before the application set it.
        return explicit != null || GlobalOpenTelemetry.isSet();
    }

    @Override
    public void beforeInvoke(Invocation invocation) {
        ServiceKey service = invocation.service();
        boolean client = invocation.side() == Side.CONSUMER;
        Context parent = client ? Context.current() : PROPAGATOR.extract(Context.root(), invocation, GETTER);
        String fullMethod = service.name() + '/' + invocation.methodName();
        Span span = tracer().spanBuilder(fullMethod)
                .setSpanKind(client ? SpanKind.CLIENT : SpanKind.SERVER)
                .setParent(parent)
                .setAttribute(RPC_SYSTEM_NAME, "jupiter")
                .setAttribute(RPC_METHOD, fullMethod)
                .setAttribute(RPC_SYSTEM, "jupiter")
                .setAttribute(RPC_SERVICE, service.name())
                .setAttribute(GROUP, service.group())
                .setAttribute(VERSION, service.version())
                .setAttribute(APP, invocation.appName())
                .setAllAttributes(invocation.isStream() ? STREAM_ATTRIBUTES : Attributes.empty())
                .startSpan();
        Context context = parent.with(span);
        invocation.attribute(CONTEXT, context);
        if (client) {
            PROPAGATOR.inject(context, invocation, SETTER);
        } else {
            peer(span, invocation.remoteAddress(), PEER_ADDRESS, PEER_PORT);
        }
    }

    @Override
    public MethodScope enterMethod(Invocation invocation) {
        Context context = (Context) invocation.attribute(CONTEXT);
        if (context == null) {
            return null;
        }
        Scope scope = context.makeCurrent();
        return scope::close;
    }

    @Override
    public void afterInvoke(Invocation invocation, Object result, Throwable error) {
        Context context = (Context) invocation.attribute(CONTEXT);
        if (context == null) {
            return;
        }
        Span span = Span.fromContext(context);
        if (invocation.side() == Side.CONSUMER) {
            peer(span, invocation.remoteAddress(), SERVER_ADDRESS, SERVER_PORT);
        }
        if (invocation.status() != null) {
            span.setAttribute(STATUS_CODE, invocation.status().name());
            span.setAttribute(STATUS, invocation.status().name());
            if (invocation.status() != Status.OK) {
                span.setAttribute(ERROR_TYPE, invocation.status().name());
            }
        }
        if (invocation.invokeId() != 0) {
            span.setAttribute(INVOKE_ID, invocation.invokeId());
        }
        if (error != null) {
            span.setStatus(StatusCode.ERROR, error.getClass().getSimpleName());
            span.recordException(error);
        }
        span.end();
    }

    private static void peer(Span span, SocketAddress address, AttributeKey<String> host, AttributeKey<Long> port) {
        if (address instanceof InetSocketAddress inet) {
            span.setAttribute(host, inet.getHostString());
            span.setAttribute(port, (long) inet.getPort());
        }
    }

    private Tracer tracer() {
        OpenTelemetry openTelemetry = explicit != null ? explicit : GlobalOpenTelemetry.getOrNoop();
        TracerOf current = tracer;
        if (current == null || current.openTelemetry != openTelemetry) {
            current = new TracerOf(openTelemetry, openTelemetry.getTracer(INSTRUMENTATION_NAME));
            tracer = current;
        }
        return current.tracer;
    }

    private record TracerOf(OpenTelemetry openTelemetry, Tracer tracer) {
    }
}
