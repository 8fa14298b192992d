package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.balance.Endpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a method's {@link ClusterStrategy} around single attempts made by the {@link ServiceInvoker}. Fail-fast
 * costs nothing extra: the attempt's result or failure is returned as it is.
 */
final class ClusterInvoker {

    private static final Logger log = LoggerFactory.getLogger(ClusterInvoker.class);

    private final ServiceInvoker invoker;

    ClusterInvoker(ServiceInvoker invoker) {
        this.invoker = invoker;
    }

    Object invokeSync(MethodInfo info, Object[] args) throws Throwable {
        ClusterStrategy strategy = info.cluster;
        switch (strategy.kind()) {
            case FAIL_FAST:
                return invoker.syncOnce(info, args, null, null);
            case BROADCAST:
                // ProxyBuilder.build() refuses this; kept as a guard for paths that bypass it.
                throw new IllegalArgumentException("broadcast & sync unsupported: " + info);
            case FAIL_SAFE:
                try {
                    return invoker.syncOnce(info, args, null, null);
                } catch (Throwable e) {
                    log.warn("{} failed; fail-safe returns {}: {}", info, info.defaultValue, e.toString());
                    return info.defaultValue;
                }
            default:
                Endpoint[] used = new Endpoint[1];
                for (int attempt = 0; ; attempt++) {
                    Endpoint excluded = used[0];
                    try {
                        return invoker.syncOnce(info, args, excluded, used);
                    } catch (RpcException e) {
                        if (attempt >= strategy.retries() || !retryable(info, e)) {
                            throw e;
                        }
                        log.debug("{} failed on {} ({}); retrying on another provider", info, used[0], e.toString());
                    }
                }
        }
    }

    InvokeFuture<Object> invokeAsync(MethodInfo info, Object[] args) {
        ClusterStrategy strategy = info.cluster;
        switch (strategy.kind()) {
            case FAIL_FAST:
                return invoker.asyncOnce(info, args, null, null);
            case BROADCAST: {
                Endpoint[] targets;
                try {
                    targets = invoker.broadcastTargets(info);
                } catch (RpcException e) {
                    InvokeFuture<Object> failed = new InvokeFuture<>(InvokeIds.next());
                    failed.completeExceptionally(e);
                    return failed;
                }
                return Broadcast.invoke(info, targets, endpoint -> invoker.asyncOn(info, args, endpoint));
            }
            case FAIL_SAFE: {
                InvokeFuture<Object> attempt = invoker.asyncOnce(info, args, null, null);
                InvokeFuture<Object> result = new InvokeFuture<>(attempt.invokeId());
                attempt.whenComplete((value, error) -> {
                    if (error == null) {
                        result.complete(value);
                    } else {
                        log.warn("{} failed; fail-safe returns {}: {}", info, info.defaultValue, error.toString());
                        result.complete(info.defaultValue);
                    }
                });
                return result;
            }
            default: {
                Endpoint[] used = new Endpoint[1];
                InvokeFuture<Object> first = invoker.asyncOnce(info, args, null, used);
                InvokeFuture<Object> result = new InvokeFuture<>(first.invokeId());
                retryOnFailure(first, result, info, args, used, 0);
                return result;
            }
        }
    }

    private void retryOnFailure(InvokeFuture<Object> attempt, InvokeFuture<Object> result, MethodInfo info,
                                Object[] args, Endpoint[] used, int attemptNumber) {
        attempt.whenComplete((value, error) -> {
            if (error == null) {
                result.complete(value);
            } else if (attemptNumber < info.cluster.retries() && error instanceof RpcException e
                    && retryable(info, e)) {
                log.debug("{} failed on {} ({}); retrying on another provider", info, used[0], e.toString());
                InvokeFuture<Object> next = invoker.asyncOnce(info, args, used[0], used);
                retryOnFailure(next, result, info, args, used, attemptNumber + 1);
            } else {
                result.completeExceptionally(error);
            }
        });
    }

    /**
     * Whether a failure may be retried elsewhere: the request surely did not run (not sent, refused busy, service
     * not found), or the method is idempotent and the outcome is unknown (timeout, connection lost).
     */
    static boolean retryable(MethodInfo info, RpcException e) {
        if (e.isSafeToRetry()) {
            return true;
        }
        return info.idempotent && (e instanceof TimeoutException || e instanceof ConnectionException);
    }
}
