package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.transport.Status;

/**
 * Runs the interceptors' {@code beforeInvoke}, for calls and stream opens alike, when the service has any. One that
 * throws refuses the request with the status {@link ProviderFailures} gives it: an {@link RpcException}'s own (flow
 * control, say) with 1.3.1's exception of that status, anything else as itself.
 */
final class InterceptorStage extends ProviderStage {

    private final Responder responder;

    InterceptorStage(Responder responder, ProviderStage next) {
        super(next);
        this.responder = responder;
    }

    @Override
    void serve(ProviderRequest request) {
        ProviderCall call = request.call;
        InterceptorChain chain = call == null ? null : call.chain;
        if (chain != null) {
            try {
                chain.before(call.invocation);
            } catch (RuntimeException | Error e) {
                Status status = ProviderFailures.statusOf(e, ProviderFailures.Where.INTERCEPTOR, null);
                responder.refuse(request, e instanceof RpcException ? Refusal.of(status, e.getMessage())
                        : Refusal.carrying(status, e));
                return;
            }
        }
        next.serve(request);
    }
}
