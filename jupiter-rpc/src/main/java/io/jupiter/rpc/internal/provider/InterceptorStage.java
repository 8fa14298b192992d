package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.transport.Status;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The interceptor stage: only when the service has interceptors or filters, or the request came with attachments,
 * makes the call's {@link ProviderCall} (the plain path allocates nothing here), drops a request its consumer
 * cancelled ({@link CancelledCalls}; unanswered, counted as {@code call.cancelled}), drops a request whose deadline
 * passed while it waited (unanswered: the consumer has given up and would discard the response; counted as
 * {@code deadline.expired}), and runs the
 * interceptors' {@code beforeInvoke}; one that throws refuses the call, answered with the status
 * {@link ProviderFailures} gives it.
 */
final class InterceptorStage extends ProviderStage {

    private static final Logger log = LoggerFactory.getLogger(InterceptorStage.class);

    private final RespondStage respond;
    private final RpcMetrics metrics;
    private final ProviderStage next;

    InterceptorStage(RespondStage respond, RpcMetrics metrics, ProviderStage next) {
        this.respond = respond;
        this.metrics = metrics;
        this.next = next;
    }

    @Override
    void serve(ProviderRequest request) {
        // Dropped unanswered: the consumer stopped waiting and told us. Counted as deadline.expired instead when the
        // deadline passed too (a caller that timed out), as call.cancelled when only the cancel says so.
        boolean cancelled = request.cancelled();
        ServiceEntry service = request.service;
        MessageWrapper message = request.message;
        InterceptorChain chain = service.chain();
        Map<String, String> attachments = message.getAttachments();
        if (chain == null && attachments == null) {
            if (cancelled) {
                metrics.callCancelled();
                return;
            }
            next.serve(request);
            return;
        }
        DefaultInvocation invocation = DefaultInvocation.provider(service.key(), message.getMethodName(),
                message.getArgs(), message.getAppName(), request.connection.remoteAddress(), request.caller(),
                attachments, request.receivedNanos, request.bodyBytes, request.id);
        if (invocation.deadlinePassed()) {
            metrics.deadlineExpired();
            log.debug("dropping request {} from {} ({}): its deadline passed {} ms ago, before it could run",
                    request.id, request.connection.remoteAddress(), invocation, -invocation.remainingMillis());
            return;
        }
        if (cancelled) {
            metrics.callCancelled();
            return;
        }
        if (chain != null) {
            try {
                chain.before(invocation);
            } catch (RuntimeException | Error e) {
                Status status = ProviderFailures.statusOf(e, ProviderFailures.Where.INTERCEPTOR, null);
                respond.answerRefusal(request, status,
                        ProviderFailures.bodyOf(e, ProviderFailures.Where.INTERCEPTOR, status));
                return;
            }
        }
        request.call = new ProviderCall(chain, invocation);
        next.serve(request);
    }
}
