package io.jupiter.rpc.cluster;

import io.jupiter.common.Requires;

/**
 * Hedged calls of an idempotent method: when the first attempt has not answered after {@code delayMillis}, another
 * attempt goes to another provider (up to {@code maxAttempts} in all, one more each {@code delayMillis}); the first
 * answer wins and the attempts still waiting are cancelled (their responses, if any come, are dropped: the 1.3.1
 * wire has no cancel message, so a provider still runs what it received). An attempt that fails with a retryable
 * failure sends the next one at once. Every attempt after the first draws on the proxy's {@link RetryBudget}.
 *
 * <p>Opt-in, per proxy ({@code ProxyBuilder.hedging}: the proxy's idempotent methods) or per method
 * ({@code ProxyBuilder.methodHedging}: that method must be marked idempotent). A hedged method's fail-over retry
 * count is not used: its attempts are the hedges.
 */
public final class HedgingPolicy {

    private final long delayMillis;
    private final int maxAttempts;

    private HedgingPolicy(long delayMillis, int maxAttempts) {
        this.delayMillis = delayMillis;
        this.maxAttempts = maxAttempts;
    }

    /** Two attempts at most, the second after {@code delayMillis} (&gt; 0; e.g. the method's p95 latency). */
    public static HedgingPolicy afterMillis(long delayMillis) {
        return of(delayMillis, 2);
    }

    /** Up to {@code maxAttempts} (2 to 5) attempts, one every {@code delayMillis} (&gt; 0) while none answered. */
    public static HedgingPolicy of(long delayMillis, int maxAttempts) {
        return new HedgingPolicy(Requires.positive(delayMillis, "delayMillis"),
                Requires.inRange(maxAttempts, 2, 5, "maxAttempts"));
    }

    public long delayMillis() {
        return delayMillis;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    @Override
    public String toString() {
        return "HedgingPolicy(" + maxAttempts + " attempts, every " + delayMillis + " ms)";
    }
}
