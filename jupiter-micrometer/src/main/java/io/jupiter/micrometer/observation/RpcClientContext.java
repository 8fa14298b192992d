package io.jupiter.micrometer.observation;

import io.jupiter.common.Requires;
import io.jupiter.rpc.filter.Invocation;
import io.micrometer.observation.transport.RequestReplySenderContext;

/**
 * The context of a client call's observation. Its carrier is the call's {@link Invocation}: a tracing handler
 * writes the trace context ({@code traceparent}, {@code tracestate}, or Brave's headers) into the request's
 * attachments through it.
 */
public final class RpcClientContext extends RequestReplySenderContext<Invocation, Object> {

    /** The context of {@code invocation}, a consumer-side call. */
    public RpcClientContext(Invocation invocation) {
        super((carrier, key, value) -> carrier.attach(key, value));
        setCarrier(Requires.notNull(invocation, "invocation"));
        setRemoteServiceName(invocation.service().name());
    }

    /** The call. */
    public Invocation invocation() {
        return getCarrier();
    }
}
