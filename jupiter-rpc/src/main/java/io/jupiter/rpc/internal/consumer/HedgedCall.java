package io.jupiter.rpc.internal.consumer;

import io.jupiter.common.LogText;
import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.cluster.HedgingPolicy;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.InvokeIds;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.netty.util.Timeout;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One hedged call ({@link HedgingPolicy}): the first attempt goes where the balancer says; while no attempt has
 * answered, another goes to a provider not tried yet every hedging delay ({@link HedgeDelay}, read once per call;
 * sent from the client's timer thread, which then serializes the request), or at once when an attempt fails with a
 * retryable failure, up to {@code maxAttempts}, each drawing on the proxy's retry budget. The first answer (a value,
 * or the method's own exception, or a failure that may not be retried) ends the call and cancels the attempts still
 * waiting; when every attempt failed, the last failure is the call's. Each attempt that tells how long the method
 * takes feeds a delay that follows the latency.
 */
final class HedgedCall {

    private static final Logger log = LoggerFactory.getLogger(HedgedCall.class);

    private final MethodInfo info;
    private final Dispatch dispatch;
    private final Object[] arguments;
    private final DefaultInvocation invocation;
    private final HedgingPolicy policy;
    private final HedgeDelay delay;
    /** The delay between attempts of this call, read once when it starts. */
    private final long delayNanos;
    private final InvokeFuture<Object> result = new InvokeFuture<>(InvokeIds.next());
    /** Guarded by this. */
    private final Endpoint[] endpoints;
    /** The pending call of each attempt sent; {@code null} until it is, or when it could not be. */
    private final PendingCall[] sent;
    /** The future of each attempt sent (what ends a foreign protocol's attempt, which has no pending call). */
    private final InvokeFuture<?>[] attempts;
    private int started;
    private int ended;
    /** Tokens of the retry budget the failed attempts took; given back if another attempt answers. */
    private int taken;
    private boolean done;
    private Timeout hedgeTimer;

    HedgedCall(MethodInfo info, Dispatch dispatch, Object[] arguments, DefaultInvocation invocation) {
        this.info = info;
        this.dispatch = dispatch;
        this.arguments = arguments;
        this.invocation = invocation;
        this.policy = info.hedging;
        this.delay = info.hedgeDelay;
        this.delayNanos = delay.nanos();
        this.endpoints = new Endpoint[policy.maxAttempts()];
        this.sent = new PendingCall[policy.maxAttempts()];
        this.attempts = new InvokeFuture<?>[policy.maxAttempts()];
    }

    /** Sends the first attempt (waiting within the timeout for a connected provider); never throws. */
    InvokeFuture<Object> start() {
        Endpoint first;
        try {
            first = dispatch.selector().select(info, null);
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return result;
        }
        launch(first);
        return result;
    }

    private void launch(Endpoint endpoint) {
        int index;
        synchronized (this) {
            if (done) {
                return;
            }
            index = started++;
            endpoints[index] = endpoint;
            if (started < endpoints.length) {
                armHedge();
            }
        }
        long startNanos = System.nanoTime();
        InvokeFuture<Object> attempt = new InvokeFuture<>(InvokeIds.next());
        PendingCall call = dispatch.sendAsync(info, arguments, invocation, endpoint, true, attempt);
        boolean cancel;
        synchronized (this) {
            sent[index] = call;
            attempts[index] = attempt;
            cancel = done; // the call ended while this attempt was being sent
        }
        if (cancel) {
            dispatch.cancel(call, attempt, "another attempt answered first");
        }
        attempt.whenComplete((value, error) -> {
            if (delay.followsLatency() && measures(error)) {
                long now = System.nanoTime();
                delay.observe(now - startNanos, now);
            }
            ended(value, error);
        });
    }

    /** Guarded by this. */
    private void armHedge() {
        if (hedgeTimer != null) {
            hedgeTimer.cancel();
        }
        hedgeTimer = dispatch.timer().newTimeout(t -> hedge(), delayNanos, TimeUnit.NANOSECONDS);
    }

    /** The delay passed with no answer: one more attempt, on another provider, if the budget allows. */
    private void hedge() {
        Endpoint next;
        synchronized (this) {
            if (done || started >= endpoints.length) {
                return;
            }
            if (!dispatch.retryBudget.allowsRetry()) {
                dispatch.metrics.retryThrottled();
                log.debug("{}: no hedge after {} µs: the retry budget is spent", info,
                        TimeUnit.NANOSECONDS.toMicros(delayNanos));
                return;
            }
            next = untried();
            if (next == null) {
                return; // no other provider connected: the attempts in flight decide
            }
        }
        launch(next);
    }

    private void ended(Object value, Throwable error) {
        Endpoint retryOn = null;
        boolean finish = false;
        synchronized (this) {
            ended++;
            if (done) {
                return;
            }
            RetryThrottle budget = dispatch.retryBudget;
            if (error == null) {
                budget.succeeded();
                budget.refund(taken);
                finish = true;
            } else if (error instanceof RpcException e && ClusterStage.retryable(info, e)) {
                taken += budget.failed(e);
                if (started < endpoints.length && budget.allowsRetry()) {
                    retryOn = untried();
                } else if (started < endpoints.length) {
                    dispatch.metrics.retryThrottled();
                }
                if (retryOn == null && ended == started) {
                    finish = true; // nothing left in flight, and nothing more to send
                }
                if (retryOn != null) {
                    log.debug("{}: attempt {} failed ({}); next attempt at once", info, ended, LogText.of(e));
                }
            } else {
                if (!(error instanceof RpcException e) || ClusterStage.answered(e)) {
                    budget.succeeded(); // the method's own exception: the provider answered
                    budget.refund(taken);
                }
                finish = true;
            }
            if (finish) {
                done = true;
                if (hedgeTimer != null) {
                    hedgeTimer.cancel();
                }
            }
        }
        if (retryOn != null) {
            launch(retryOn);
            return;
        }
        if (finish) {
            cancelOthers();
            if (error == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(error);
            }
        }
    }

    private void cancelOthers() {
        PendingCall[] calls;
        InvokeFuture<?>[] futures;
        synchronized (this) {
            calls = Arrays.copyOf(sent, started);
            futures = Arrays.copyOf(attempts, started);
        }
        for (int i = 0; i < calls.length; i++) {
            dispatch.cancel(calls[i], futures[i], "another attempt answered first");
        }
    }

    /**
     * Whether an attempt that ended with {@code error} tells how long the method takes: an answer (a value, or the
     * method's or provider's error), a timeout, or an attempt given up on because another answered first (it took
     * at least that long: leaving it out would hide the slow tail that hedging cuts, and the percentile would sink).
     * Failures here or of the connection say nothing about the method.
     */
    private static boolean measures(Throwable error) {
        if (error == null || error instanceof AttemptCancelled || !(error instanceof RpcException e)) {
            return true;
        }
        return (e instanceof TimeoutException && !StatusTable.CLIENT_TIMEOUT.is(e.status()))
                || ClusterStage.answered(e);
    }

    /** A connected provider no attempt of this call went to; {@code null} if there is none. Guarded by this. */
    private Endpoint untried() {
        Endpoint last = endpoints[started - 1];
        for (int tries = 0; tries < 4; tries++) {
            Endpoint candidate = dispatch.selector().selectNow(info, last);
            if (candidate == null) {
                return null;
            }
            if (!tried(candidate)) {
                return candidate;
            }
            dispatch.selector().notUsed(candidate);
        }
        return null;
    }

    private boolean tried(Endpoint endpoint) {
        for (int i = 0; i < started; i++) {
            if (endpoints[i] == endpoint) {
                return true;
            }
        }
        return false;
    }
}
