package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.serialization.wire.MessageWrapper;
import java.util.Map;

/**
 * Makes the request's {@link ProviderCall} (the invocation interceptors see, and the call's context) when anything
 * needs it: a service with interceptors or filters, a call with attachments, every stream's open (its end runs the
 * interceptors later). The plain call allocates nothing here.
 */
final class InvocationStage extends ProviderStage {

    private static final Object[] NO_ARGS = new Object[0];

    InvocationStage(ProviderStage next) {
        super(next);
    }

    @Override
    void serve(ProviderRequest request) {
        ServiceEntry service = request.service;
        MessageWrapper message = request.message;
        InterceptorChain chain = service.chain();
        Map<String, String> attachments = message.getAttachments();
        if (chain != null || attachments != null || request.opensStream()) {
            Object[] args = message.getArgs();
            if (request.opensStream() && args == null) {
                args = NO_ARGS;
            }
            DefaultInvocation invocation = DefaultInvocation.provider(service.key(), message.getMethodName(), args,
                    message.getAppName(), request.connection.remoteAddress(), request.caller, attachments,
                    request.receivedNanos, request.bodyBytes, request.id);
            if (request.opensStream()) {
                invocation.stream(true);
            }
            request.call = new ProviderCall(chain, invocation);
        }
        next.serve(request);
    }
}
