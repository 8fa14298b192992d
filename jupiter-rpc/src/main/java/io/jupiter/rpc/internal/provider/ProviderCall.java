package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.internal.filter.ContextHolder;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.rpc.internal.filter.ServedRequest;
import io.jupiter.transport.Status;

/**
 * What a request carries beyond the plain dispatch when its service has interceptors or filters, or it came with
 * attachments: the invocation they see, the interceptor chain, and the scopes open while the method runs. Made by
 * the invocation stage; only data and the three calls around the method.
 */
final class ProviderCall {

    final InterceptorChain chain;
    final DefaultInvocation invocation;
    private Interceptor.MethodScope[] scopes;

    ProviderCall(InterceptorChain chain, DefaultInvocation invocation) {
        this.chain = chain;
        this.invocation = invocation;
    }

    /**
     * Makes this request the one the thread serves (for {@code RpcContext}) and runs the interceptors'
     * {@code enterMethod}; returns what to restore.
     */
    ServedRequest enter() {
        ServedRequest previous = ContextHolder.enter(invocation);
        if (chain != null) {
            scopes = chain.enterMethod(invocation);
        }
        return previous;
    }

    /** Undoes {@link #enter()}, on the same thread. */
    void exit(ServedRequest previous) {
        InterceptorChain.exitMethod(scopes);
        scopes = null;
        ContextHolder.exit(previous);
    }

    /** The response was written: runs the {@code afterInvoke} of the chain, if any. */
    void end(Status status, Object result, Throwable error) {
        if (chain != null) {
            invocation.status(status);
            chain.after(invocation, result, error);
        }
    }
}
