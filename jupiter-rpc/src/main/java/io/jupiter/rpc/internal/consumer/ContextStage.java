package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.internal.filter.ContextHolder;
import io.jupiter.rpc.internal.filter.DefaultInvocation;

/**
 * The outermost stage: decides whether the call needs an invocation and makes it. One is needed when the proxy has
 * interceptors, when it propagates its deadline, or when this thread has a context: it serves a request (whose
 * attachments and deadline the call carries on) or user code scoped attachments with {@code RpcContext.attach}.
 * Otherwise the call goes on with none: a static flag read and nothing allocated.
 */
final class ContextStage extends CallStage {

    private final ProxySettings settings;
    private final MethodInfo info;
    /** Whether every call needs an invocation (interceptors, or deadline propagation). */
    private final boolean always;
    private final CallStage next;

    ContextStage(ProxySettings settings, MethodInfo info, boolean always, CallStage next) {
        this.settings = settings;
        this.info = info;
        this.always = always;
        this.next = next;
    }

    @Override
    Object invokeSync(Object[] arguments, DefaultInvocation invocation) throws Throwable {
        return next.invokeSync(arguments, invocation(arguments));
    }

    @Override
    InvokeFuture<Object> invokeAsync(Object[] arguments, DefaultInvocation invocation) {
        return next.invokeAsync(arguments, invocation(arguments));
    }

    private DefaultInvocation invocation(Object[] arguments) {
        ContextHolder context = ContextHolder.active();
        if (context == null && !always) {
            return null;
        }
        return DefaultInvocation.consumer(settings.key, info.name, arguments, settings.appName, info.timeoutMillis,
                context);
    }
}
