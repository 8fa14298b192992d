package io.jupiter.micrometer.observation;

import io.jupiter.common.Requires;
import io.jupiter.rpc.filter.Invocation;
import io.micrometer.observation.transport.RequestReplyReceiverContext;

/**
 * The context of a served request's observation. Its carrier is the request's {@link Invocation}: a tracing handler
 * reads the caller's trace context from the request's attachments through it.
 */
public final class RpcServerContext extends RequestReplyReceiverContext<Invocation, Object> {

    /** The context of {@code invocation}, a provider-side request. */
    public RpcServerContext(Invocation invocation) {
        super(Invocation::attachment);
        setCarrier(Requires.notNull(invocation, "invocation"));
        setRemoteServiceName(invocation.appName());
    }

    /** The request. */
    public Invocation invocation() {
        return getCarrier();
    }
}
