package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.internal.filter.ContextHolder;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.transport.Status;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a request needs beyond the plain dispatch when its service has interceptors or filters, or it came with
 * attachments: the invocation they see, the deadline check, the thread's context while the method runs, and the
 * {@code afterInvoke} calls once the response is written.
 */
final class ProviderCall {

    private static final Logger log = LoggerFactory.getLogger(ProviderCall.class);

    private final InterceptorChain chain;
    private final DefaultInvocation invocation;
    private Interceptor.MethodScope[] scopes;

    private ProviderCall(InterceptorChain chain, DefaultInvocation invocation) {
        this.chain = chain;
        this.invocation = invocation;
    }

    /** The call's extras, or {@code null} when nothing asked for them (the plain path then allocates nothing). */
    static ProviderCall startIfNeeded(ServiceEntry service, MessageWrapper message, ProviderRequest request) {
        InterceptorChain chain = service.chain();
        Map<String, String> attachments = message.getAttachments();
        if (chain == null && attachments == null) {
            return null;
        }
        return new ProviderCall(chain, DefaultInvocation.provider(service.key(), message.getMethodName(),
                message.getArgs(), message.getAppName(), request.connection.remoteAddress(),
                request.caller(), attachments,
                request.receivedNanos, request.bodyBytes));
    }

    /**
     * Whether the request may run. It may not if its deadline passed (it is dropped unanswered: the consumer has
     * given up and would discard the response) or if an interceptor refused it (answered with the refusal).
     */
    boolean admit(ProviderRequest request) {
        if (invocation.deadlinePassed()) {
            log.debug("dropping request {} from {} ({}): its deadline passed {} ms ago, before it could run",
                    request.id, request.connection.remoteAddress(), invocation, -invocation.remainingMillis());
            return false;
        }
        if (chain == null) {
            return true;
        }
        try {
            chain.before(invocation);
            return true;
        } catch (RuntimeException | Error e) {
            Status status = ProviderFailures.statusOf(e, ProviderFailures.Where.INTERCEPTOR, null);
            request.respond(status, ProviderFailures.bodyOf(e, ProviderFailures.Where.INTERCEPTOR, status));
            return false;
        }
    }

    /**
     * Makes this request the one the thread serves (for {@code RpcContext}) and runs the interceptors'
     * {@code enterMethod}; returns what to restore.
     */
    DefaultInvocation enter() {
        DefaultInvocation previous = ContextHolder.enter(invocation);
        if (chain != null) {
            scopes = chain.enterMethod(invocation);
        }
        return previous;
    }

    /** Undoes {@link #enter()}, on the same thread. */
    void exit(DefaultInvocation previous) {
        InterceptorChain.exitMethod(scopes);
        scopes = null;
        ContextHolder.exit(previous);
    }

    /** The response was written: runs the {@code afterInvoke} of the chain, if any. Null-safe. */
    static void end(ProviderCall call, Status status, Object result, Throwable error) {
        if (call != null && call.chain != null) {
            call.invocation.status(status);
            call.chain.after(call.invocation, result, error);
        }
    }
}
