package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.filter.InterceptorChain;

/**
 * Makes the request's {@link ProviderCall} (the invocation interceptors see, and the call's context) when anything
 * needs it: a service with interceptors or filters, every stream's open (its end runs the interceptors later). A call
 * that only carries attachments is marked to be the thread's context while its method runs; its invocation is made
 * only if {@code RpcContext} or a call from the method asks for it. The plain call allocates nothing here.
 */
final class InvocationStage extends ProviderStage {

    InvocationStage(ProviderStage next) {
        super(next);
    }

    @Override
    void serve(ProviderRequest request) {
        InterceptorChain chain = request.service.chain();
        if (chain != null || request.opensStream()) {
            request.call = new ProviderCall(chain, request.invocation());
        } else if (request.message.getAttachments() != null) {
            request.servesAttachments(true);
        }
        next.serve(request);
    }
}
