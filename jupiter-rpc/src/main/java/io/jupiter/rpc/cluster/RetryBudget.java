package io.jupiter.rpc.cluster;

import io.jupiter.common.config.JupiterSettings;

/**
 * The retry budget of one proxy (gRPC's retry throttling): a bucket of {@code maxTokens} tokens, full at first.
 * Every failed attempt of a fail-over or hedged method that is a timeout or a refusal ({@code SERVER_BUSY}, flow
 * control, service not found) takes one token; every attempt a provider answered (a value, or an exception the method
 * threw) gives back {@code tokenPercent} % of one. A retry or a hedge is sent only while more than half the tokens
 * are left, so when every provider fails the retries stop after a few and the load is that of the calls alone.
 *
 * <p>Two kinds of failure leave the bucket as it was: one that a later attempt of the same call made good (another
 * provider answered: the failure was that provider's alone, e.g. a stale one answering {@code SERVICE_NOT_FOUND}),
 * whose token comes back; and the failures of a lost connection (the calls in flight on a connection that closed, a
 * request not sent because its connection had just closed), which take none: they come in bursts from one event,
 * their retries go to providers still connected, and a provider without a connection receives nothing.
 */
public final class RetryBudget {

    private static final RetryBudget UNLIMITED = new RetryBudget(0, 100);

    private final int maxTokens;
    private final int tokenPercent;

    private RetryBudget(int maxTokens, int tokenPercent) {
        this.maxTokens = maxTokens;
        this.tokenPercent = tokenPercent;
    }

    /** The defaults: {@code jupiter.rpc.retry.budget.*} (10 tokens, a tenth of a token per success). */
    public static RetryBudget defaults() {
        return of(JupiterSettings.RETRY_BUDGET_MAX_TOKENS.get(), JupiterSettings.RETRY_BUDGET_TOKEN_PERCENT.get());
    }

    /**
     * A budget of {@code maxTokens} (1 to 100,000); each successful attempt gives back {@code tokenPercent} (1 to
     * 100) percent of a token.
     */
    public static RetryBudget of(int maxTokens, int tokenPercent) {
        return new RetryBudget(JupiterSettings.RETRY_BUDGET_MAX_TOKENS.check(maxTokens),
                JupiterSettings.RETRY_BUDGET_TOKEN_PERCENT.check(tokenPercent));
    }

    /** No budget: every retry the cluster strategy allows is sent (as before issue #26). */
    public static RetryBudget unlimited() {
        return UNLIMITED;
    }

    public boolean limited() {
        return maxTokens > 0;
    }

    public int maxTokens() {
        return maxTokens;
    }

    public int tokenPercent() {
        return tokenPercent;
    }

    @Override
    public String toString() {
        return limited() ? "RetryBudget(" + maxTokens + " tokens, " + tokenPercent + " % per success)"
                : "RetryBudget(unlimited)";
    }
}
