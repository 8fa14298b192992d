package io.jupiter.rpc.internal.consumer;

import io.jupiter.common.LogText;
import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A method's {@link ClusterStrategy}: how many attempts a call makes and on which providers, each attempt made by
 * the {@link Dispatch}. One subclass per strategy, chosen when the pipeline is built, so a call pays for its own
 * strategy only: fail-fast returns the attempt's result or failure as it is.
 */
abstract class ClusterStage extends CallStage {

    private static final Logger log = LoggerFactory.getLogger(ClusterStage.class);

    final MethodInfo info;
    final Dispatch dispatch;

    ClusterStage(MethodInfo info, Dispatch dispatch) {
        this.info = info;
        this.dispatch = dispatch;
    }

    static ClusterStage of(MethodInfo info, Dispatch dispatch) {
        if (info.hedging != null && (info.cluster.kind() == ClusterStrategy.Kind.FAIL_FAST
                || info.cluster.kind() == ClusterStrategy.Kind.FAIL_OVER)) {
            return new Hedged(info, dispatch);
        }
        switch (info.cluster.kind()) {
            case FAIL_FAST:
                return new FailFast(info, dispatch);
            case FAIL_SAFE:
                return new FailSafe(info, dispatch);
            case BROADCAST:
                return new Broadcasting(info, dispatch);
            default:
                return new FailOver(info, dispatch);
        }
    }

    /**
     * Whether a failure may be retried elsewhere: the request surely did not run (not sent, refused busy, service
     * not found), or the method is idempotent and the outcome is unknown (timeout, connection lost) or a server error
     * (an exception the method does not declare, a provider failure around it: another provider may be healthy).
     * A declared exception is the method's answer and is never retried.
     */
    static boolean retryable(MethodInfo info, RpcException e) {
        if (e.isSafeToRetry()) {
            return true;
        }
        return info.idempotent && (e instanceof TimeoutException || e instanceof ConnectionException
                || isServerError(e));
    }

    /** An exception the method does not declare, or a failure of the provider around the method. */
    static boolean isServerError(RpcException e) {
        return StatusTable.isServerError(e.status());
    }

    /** A provider's refusal of a call it did not run because it is full (busy, flow control). */
    static boolean isRefusal(RpcException e) {
        return StatusTable.isFull(e.status());
    }

    /**
     * Whether a failure that may not be retried is the provider's answer (the method threw, or the provider failed
     * around it): for the retry budget, a provider that answered is a success.
     */
    static boolean answered(RpcException e) {
        return e instanceof RemoteServiceException || StatusTable.isAnswer(e.status());
    }

    /**
     * One asynchronous attempt on the load balancer's choice; never throws: a provider that cannot be chosen fails
     * the future.
     */
    final InvokeFuture<Object> attemptAsync(Object[] arguments, DefaultInvocation invocation) {
        Endpoint endpoint;
        try {
            endpoint = dispatch.select(info, null);
        } catch (RuntimeException e) {
            return failed(e);
        }
        return dispatch.async(info, arguments, invocation, endpoint, true);
    }

    static InvokeFuture<Object> failed(Throwable error) {
        InvokeFuture<Object> failed = new InvokeFuture<>(InvokeIds.next());
        failed.completeExceptionally(error);
        return failed;
    }

    /** One attempt; its outcome is the call's. */
    static final class FailFast extends ClusterStage {

        FailFast(MethodInfo info, Dispatch dispatch) {
            super(info, dispatch);
        }

        @Override
        Object invokeSync(Object[] arguments, DefaultInvocation invocation) throws Throwable {
            return dispatch.sync(info, arguments, invocation, dispatch.select(info, null));
        }

        @Override
        InvokeFuture<Object> invokeAsync(Object[] arguments, DefaultInvocation invocation) {
            return attemptAsync(arguments, invocation);
        }
    }

    /** One attempt; a failure is logged and the call returns the return type's default value. */
    static final class FailSafe extends ClusterStage {

        FailSafe(MethodInfo info, Dispatch dispatch) {
            super(info, dispatch);
        }

        @Override
        Object invokeSync(Object[] arguments, DefaultInvocation invocation) {
            try {
                return dispatch.sync(info, arguments, invocation, dispatch.select(info, null));
            } catch (Throwable e) {
                log.warn("{} failed; fail-safe returns {}: {}", info, info.defaultValue, LogText.of(e));
                return info.defaultValue;
            }
        }

        @Override
        InvokeFuture<Object> invokeAsync(Object[] arguments, DefaultInvocation invocation) {
            InvokeFuture<Object> attempt = attemptAsync(arguments, invocation);
            InvokeFuture<Object> result = new InvokeFuture<>(attempt.invokeId());
            result.onCancel(() -> attempt.cancel(false));
            attempt.whenComplete((value, error) -> {
                if (error == null) {
                    result.complete(value);
                } else {
                    log.warn("{} failed; fail-safe returns {}: {}", info, info.defaultValue, LogText.of(error));
                    result.complete(info.defaultValue);
                }
            });
            return result;
        }
    }

    /**
     * Up to {@code retries} more attempts, each on another provider when there is one, as long as the failure is
     * {@linkplain #retryable retryable}; never after the method ran and threw.
     */
    static final class FailOver extends ClusterStage {

        FailOver(MethodInfo info, Dispatch dispatch) {
            super(info, dispatch);
        }

        @Override
        Object invokeSync(Object[] arguments, DefaultInvocation invocation) throws Throwable {
            int retries = info.cluster.retries();
            RetryThrottle budget = dispatch.retryBudget;
            Endpoint used = null;
            int taken = 0;
            for (int attempt = 0; ; attempt++) {
                Object value;
                try {
                    Endpoint chosen = dispatch.select(info, used);
                    used = chosen;
                    value = dispatch.sync(info, arguments, invocation, chosen);
                } catch (RpcException e) {
                    if (!retryable(info, e)) {
                        if (answered(e)) {
                            budget.succeeded();
                            budget.refund(taken);
                        }
                        throw e;
                    }
                    taken += budget.failed(e);
                    if (attempt >= retries || !mayRetry(e, used)) {
                        throw e;
                    }
                    continue;
                } catch (Throwable e) {
                    budget.succeeded(); // the provider answered with the method's exception
                    budget.refund(taken);
                    throw e;
                }
                budget.succeeded();
                budget.refund(taken);
                return value;
            }
        }

        /**
         * Whether the budget lets a retry go, and, after a refusal, another provider can take it (a full provider
         * is never asked again at once); logs either way.
         */
        private boolean mayRetry(RpcException e, Endpoint failedOn) {
            if (failedOn != null && isRefusal(e) && !dispatch.selector().hasAnotherThan(failedOn)) {
                log.debug("{} refused by {} ({}); not retried: no other provider to take it", info, failedOn,
                        LogText.of(e));
                return false;
            }
            RetryThrottle budget = dispatch.retryBudget;
            if (!budget.allowsRetry()) {
                dispatch.metrics.retryThrottled();
                log.debug("{} failed on {} ({}); not retried: the retry budget is spent ({} tokens left)", info,
                        failedOn, LogText.of(e), budget.tokens());
                return false;
            }
            log.debug("{} failed on {} ({}); retrying on another provider", info, failedOn, LogText.of(e));
            return true;
        }

        @Override
        InvokeFuture<Object> invokeAsync(Object[] arguments, DefaultInvocation invocation) {
            Attempt first = attempt(arguments, invocation, null);
            InvokeFuture<Object> result = new InvokeFuture<>(first.future().invokeId());
            retryOnFailure(first, result, arguments, invocation, 0, 0);
            return result;
        }

        /**
         * One asynchronous attempt and the provider it went to: the previous attempt's when none could be chosen
         * (the attempt then fails with the reason).
         */
        private record Attempt(InvokeFuture<Object> future, Endpoint endpoint) {
        }

        /** One asynchronous attempt on a provider other than {@code excluded} if possible. */
        private Attempt attempt(Object[] arguments, DefaultInvocation invocation, Endpoint excluded) {
            Endpoint endpoint;
            try {
                endpoint = dispatch.select(info, excluded);
            } catch (RuntimeException e) {
                return new Attempt(failed(e), excluded);
            }
            return new Attempt(dispatch.async(info, arguments, invocation, endpoint, true), endpoint);
        }

        /** @param taken the budget's tokens the call's failed attempts took so far */
        private void retryOnFailure(Attempt attempt, InvokeFuture<Object> result, Object[] arguments,
                                    DefaultInvocation invocation, int attemptNumber, int taken) {
            Endpoint used = attempt.endpoint();
            result.onCancel(() -> attempt.future().cancel(false));
            attempt.future().whenComplete((value, error) -> {
                RetryThrottle budget = dispatch.retryBudget;
                if (error == null) {
                    budget.succeeded();
                    budget.refund(taken);
                    result.complete(value);
                } else if (error instanceof RpcException e && retryable(info, e)) {
                    int nowTaken = taken + budget.failed(e);
                    if (attemptNumber < info.cluster.retries() && mayRetry(e, used)) {
                        retryOnFailure(attempt(arguments, invocation, used), result, arguments, invocation,
                                attemptNumber + 1, nowTaken);
                    } else {
                        result.completeExceptionally(error);
                    }
                } else {
                    if (!(error instanceof RpcException e) || answered(e)) {
                        budget.succeeded();
                        budget.refund(taken);
                    }
                    result.completeExceptionally(error);
                }
            });
        }
    }

    /**
     * Hedged attempts of an idempotent method ({@link io.jupiter.rpc.cluster.HedgingPolicy}): see {@link HedgedCall}.
     * A synchronous call waits for the outcome of the asynchronous one; every attempt has its own timeout, so the
     * wait ends by itself.
     */
    static final class Hedged extends ClusterStage {

        Hedged(MethodInfo info, Dispatch dispatch) {
            super(info, dispatch);
        }

        @Override
        Object invokeSync(Object[] arguments, DefaultInvocation invocation) throws Throwable {
            InvokeFuture<Object> result = invokeAsync(arguments, invocation);
            try {
                return result.get();
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RpcException rpc) {
                    rpc.fillInStackTrace(); // raised on another thread; the caller's stack is the useful one
                }
                throw cause;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                result.cancel(false);
                throw new RpcException(StatusTable.CLIENT_ERROR.status(),
                        info + " interrupted while waiting for its attempts");
            }
        }

        @Override
        InvokeFuture<Object> invokeAsync(Object[] arguments, DefaultInvocation invocation) {
            return new HedgedCall(info, dispatch, arguments, invocation).start();
        }
    }

    /**
     * One attempt on every provider, gathered by {@link Broadcast}; asynchronous only ({@code ProxyBuilder.build()}
     * refuses a synchronous method). Every provider gets the same attachments.
     */
    static final class Broadcasting extends ClusterStage {

        Broadcasting(MethodInfo info, Dispatch dispatch) {
            super(info, dispatch);
        }

        @Override
        Object invokeSync(Object[] arguments, DefaultInvocation invocation) {
            // ProxyBuilder.build() refuses this; kept as a guard for paths that bypass it.
            throw new IllegalArgumentException("broadcast & sync unsupported: " + info);
        }

        @Override
        InvokeFuture<Object> invokeAsync(Object[] arguments, DefaultInvocation invocation) {
            Endpoint[] targets;
            try {
                targets = dispatch.broadcastTargets(info);
            } catch (RuntimeException e) {
                return failed(e);
            }
            return Broadcast.invoke(info, targets,
                    endpoint -> dispatch.async(info, arguments, invocation, endpoint, false));
        }
    }
}
