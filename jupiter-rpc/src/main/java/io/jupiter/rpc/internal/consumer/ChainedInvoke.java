package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.filter.ContextHolder;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Status;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The call path of a proxy when something asked for more than the plain call: interceptors or filters, a context
 * to carry on (attachments, deadline), or deadline propagation. It wraps the same steps as
 * {@link ServiceInvoker}'s plain path (select, send, wait) with an {@link DefaultInvocation invocation}: the chain's
 * {@code beforeInvoke} first, then the call with the invocation's attachments, then {@code afterInvoke} with the
 * outcome, for every kind of call.
 */
final class ChainedInvoke {

    private ChainedInvoke() {
    }

    static Object invoke(ServiceInvoker invoker, MethodInfo info, Object[] arguments, ContextHolder context)
            throws Throwable {
        ProxySettings settings = invoker.settings;
        DefaultInvocation invocation = DefaultInvocation.consumer(settings.key, info.name, arguments,
                settings.appName, info.timeoutMillis, context);
        if (settings.invokeType == InvokeType.ASYNC) {
            InvokeFutureContext.set(invokeAsync(invoker, info, invocation));
            return info.defaultValue;
        }
        if (info.returnsFuture) {
            return invokeAsync(invoker, info, invocation);
        }
        return invokeSync(invoker, info, invocation);
    }

    private static Object invokeSync(ServiceInvoker invoker, MethodInfo info, DefaultInvocation invocation)
            throws Throwable {
        InterceptorChain chain = invoker.chain;
        if (chain != null) {
            chain.before(invocation);
        }
        Object result;
        try {
            Map<String, String> attachments = invocation.outgoingAttachments(invoker.settings.propagateDeadline);
            Connection connection = invoker.select(info);
            invocation.remoteAddress(connection.remoteAddress());
            PendingCall call = PendingCall.sync(InvokeIds.next(), info, connection, invoker.calls);
            invocation.requestBytes(invoker.send(call, invocation.args(), attachments));
            result = call.await();
        } catch (Throwable t) {
            if (chain != null) {
                invocation.status(DefaultInvocation.statusOf(t));
                chain.after(invocation, null, t);
            }
            throw t;
        }
        if (chain != null) {
            invocation.status(Status.OK);
            chain.after(invocation, result, null);
        }
        return result;
    }

    private static InvokeFuture<Object> invokeAsync(ServiceInvoker invoker, MethodInfo info,
                                                    DefaultInvocation invocation) {
        long id = InvokeIds.next();
        InvokeFuture<Object> future = new InvokeFuture<>(id);
        InterceptorChain chain = invoker.chain;
        InvokeFuture<Object> call = future;
        if (chain != null) {
            try {
                chain.before(invocation);
            } catch (RuntimeException | Error e) {
                future.completeExceptionally(e);
                return future;
            }
            // The interceptors see the outcome before anyone waiting on the caller's future does.
            call = new InvokeFuture<>(id);
            call.whenComplete((value, error) -> {
                invocation.status(error == null ? Status.OK : DefaultInvocation.statusOf(error));
                chain.after(invocation, value, error);
                if (error == null) {
                    future.complete(value);
                } else {
                    future.completeExceptionally(error);
                }
            });
        }
        try {
            Map<String, String> attachments = invocation.outgoingAttachments(invoker.settings.propagateDeadline);
            if (info.cluster.kind() == ClusterStrategy.Kind.BROADCAST) {
                // The chain sees one call and one outcome (the list of results); every provider gets the same
                // attachments.
                InvokeFuture<Object> outcome = call;
                Broadcast.invoke(info, invoker.broadcastTargets(info),
                        endpoint -> sendTo(invoker, info, invocation, attachments, endpoint))
                        .whenComplete((value, error) -> {
                            if (error == null) {
                                outcome.complete(value);
                            } else {
                                outcome.completeExceptionally(error);
                            }
                        });
                return future;
            }
            Connection connection = invoker.select(info);
            invocation.remoteAddress(connection.remoteAddress());
            PendingCall pending = PendingCall.async(id, info, connection, invoker, call);
            invocation.requestBytes(invoker.send(pending, invocation.args(), attachments));
            // Armed after sending: a response that wins the race leaves a timer that finds nothing to do.
            pending.timeout(invoker.timer.newTimeout(pending, info.timeoutMillis, TimeUnit.MILLISECONDS));
        } catch (RuntimeException e) {
            call.completeExceptionally(e);
        }
        return future;
    }

    /** One provider's share of a broadcast made through the chain. */
    private static InvokeFuture<Object> sendTo(ServiceInvoker invoker, MethodInfo info, DefaultInvocation invocation,
                                               Map<String, String> attachments, Endpoint endpoint) {
        long id = InvokeIds.next();
        InvokeFuture<Object> one = new InvokeFuture<>(id);
        try {
            Connection connection = invoker.connectionOf(endpoint, info);
            PendingCall pending = PendingCall.async(id, info, connection, invoker, one);
            invocation.requestBytes(invoker.send(pending, invocation.args(), attachments));
            pending.timeout(invoker.timer.newTimeout(pending, info.timeoutMillis, TimeUnit.MILLISECONDS));
        } catch (RuntimeException e) {
            one.completeExceptionally(e);
        }
        return one;
    }
}
