package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.exception.ThrottledException;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.filter.DefaultInvocation;

/**
 * Client-side throttling ({@link AdaptiveThrottle}) in front of the cluster stage: a call it refuses fails at once
 * with a {@link ThrottledException}, sent nowhere; the outcome of every call it lets go is counted. Only in the chain
 * when the proxy's throttling is on.
 */
final class ThrottleStage extends CallStage {

    private final AdaptiveThrottle throttle;
    private final MethodInfo info;
    private final CallStage next;

    ThrottleStage(AdaptiveThrottle throttle, MethodInfo info, CallStage next) {
        this.throttle = throttle;
        this.info = info;
        this.next = next;
    }

    @Override
    Object invokeSync(Object[] arguments, DefaultInvocation invocation) throws Throwable {
        ThrottledException refused = throttle.admit(info);
        if (refused != null) {
            throw refused;
        }
        Object value;
        try {
            value = next.invokeSync(arguments, invocation);
        } catch (Throwable e) {
            throttle.ended(e);
            throw e;
        }
        throttle.ended(null);
        return value;
    }

    @Override
    InvokeFuture<Object> invokeAsync(Object[] arguments, DefaultInvocation invocation) {
        ThrottledException refused = throttle.admit(info);
        if (refused != null) {
            InvokeFuture<Object> failed = new InvokeFuture<>(InvokeIds.next());
            failed.completeExceptionally(refused);
            return failed;
        }
        InvokeFuture<Object> future = next.invokeAsync(arguments, invocation);
        future.whenComplete((value, error) -> throttle.ended(error));
        return future;
    }
}
