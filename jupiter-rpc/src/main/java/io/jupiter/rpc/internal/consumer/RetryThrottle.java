package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.cluster.RetryBudget;
import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RpcException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A proxy's {@link RetryBudget} at work: the token bucket in thousandths of a token. While it is full (the usual
 * case), a success only reads it. A failure that a later attempt of the same call made good (another provider
 * answered) gives its token back ({@link #refund}): the failure was one provider's, not everyone's, so one bad
 * provider among good ones (a stale registry entry answering {@code SERVICE_NOT_FOUND}, one that is overloaded) does
 * not spend the budget, while failures everywhere, whose retries fail too, do.
 */
final class RetryThrottle {

    private static final int ONE = 1000;

    private final boolean limited;
    private final int max;
    private final int refill;
    private final AtomicInteger tokens;

    RetryThrottle(RetryBudget budget) {
        this.limited = budget.limited();
        this.max = budget.maxTokens() * ONE;
        this.refill = budget.tokenPercent() * ONE / 100;
        this.tokens = new AtomicInteger(max);
    }

    /** An attempt succeeded (the provider answered, with a value or with the method's exception). */
    void succeeded() {
        if (!limited) {
            return;
        }
        int t = tokens.get();
        while (t < max && !tokens.compareAndSet(t, Math.min(max, t + refill))) {
            t = tokens.get();
        }
    }

    /**
     * An attempt failed with {@code e}; a timeout or refusal takes a token, a lost connection none. Returns the
     * tokens taken (0 or 1), to {@link #refund} should the call still succeed.
     */
    int failed(RpcException e) {
        if (!limited || e instanceof ConnectionException) {
            return 0;
        }
        int t = tokens.get();
        while (t > 0 && !tokens.compareAndSet(t, Math.max(0, t - ONE))) {
            t = tokens.get();
        }
        return 1;
    }

    /** A call succeeded after failed attempts that took {@code taken} tokens: they come back (up to the maximum). */
    void refund(int taken) {
        if (!limited || taken == 0) {
            return;
        }
        int t = tokens.get();
        while (t < max && !tokens.compareAndSet(t, Math.min(max, t + taken * ONE))) {
            t = tokens.get();
        }
    }

    /** Whether a retry or hedge may be sent now: more than half the tokens are left. */
    boolean allowsRetry() {
        return !limited || tokens.get() > max / 2;
    }

    /** Tokens left, for log lines. */
    double tokens() {
        return tokens.get() / (double) ONE;
    }
}
