package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.transport.Status;

/**
 * The user's interceptors and service-loaded filters, around the cluster stage: they see each call once, whatever
 * the number of attempts, with the outcome the caller gets (a fail-over's last attempt, a fail-safe's default value,
 * a broadcast's list). {@code afterInvoke} runs exactly once for each interceptor whose {@code beforeInvoke}
 * returned, before the caller sees the outcome.
 */
final class ConsumerInterceptorStage extends CallStage {

    private final InterceptorChain chain;
    private final CallStage next;

    ConsumerInterceptorStage(InterceptorChain chain, CallStage next) {
        this.chain = chain;
        this.next = next;
    }

    @Override
    Object invokeSync(Object[] arguments, DefaultInvocation invocation) throws Throwable {
        chain.before(invocation);
        Object result;
        try {
            result = next.invokeSync(invocation.args(), invocation);
        } catch (Throwable t) {
            invocation.status(DefaultInvocation.statusOf(t));
            chain.after(invocation, null, t);
            throw t;
        }
        invocation.status(Status.OK);
        chain.after(invocation, result, null);
        return result;
    }

    @Override
    InvokeFuture<Object> invokeAsync(Object[] arguments, DefaultInvocation invocation) {
        try {
            chain.before(invocation);
        } catch (RuntimeException | Error e) {
            InvokeFuture<Object> refused = new InvokeFuture<>(InvokeIds.next());
            refused.completeExceptionally(e);
            return refused;
        }
        InvokeFuture<Object> inner;
        try {
            inner = next.invokeAsync(invocation.args(), invocation);
        } catch (RuntimeException | Error e) {
            // Stages below complete their future rather than throw; kept so that afterInvoke still runs once.
            inner = new InvokeFuture<>(InvokeIds.next());
            inner.completeExceptionally(e);
        }
        // The interceptors see the outcome before anyone waiting on the caller's future does.
        InvokeFuture<Object> outer = new InvokeFuture<>(inner.invokeId());
        inner.whenComplete((value, error) -> {
            invocation.status(error == null ? Status.OK : DefaultInvocation.statusOf(error));
            chain.after(invocation, value, error);
            if (error == null) {
                outer.complete(value);
            } else {
                outer.completeExceptionally(error);
            }
        });
        return outer;
    }
}
