package io.jupiter.rpc.cluster;

import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;

/**
 * Hedged calls of an idempotent method: when the first attempt has not answered after the hedging delay, another
 * attempt goes to another provider (up to {@code maxAttempts} in all, one more each delay); the first answer wins
 * and the attempts still waiting are cancelled (their responses, if any come, are dropped: the 1.3.1 wire has no
 * cancel message, so a provider still runs what it received). An attempt that fails with a retryable failure sends
 * the next one at once. Every attempt after the first draws on the proxy's {@link RetryBudget}.
 *
 * <p>The delay is either fixed ({@link #afterMillis}, {@link #of}) or follows the method's own recent latency as
 * this proxy sees it ({@link #afterLatencyPercentile}): the given percentile of its recent attempts, never below a
 * floor, and a fixed fallback until enough attempts were seen.
 *
 * <p>Opt-in, per proxy ({@code ProxyBuilder.hedging}: the proxy's idempotent methods) or per method
 * ({@code ProxyBuilder.methodHedging}: that method must be marked idempotent). A hedged method's fail-over retry
 * count is not used: its attempts are the hedges.
 */
public final class HedgingPolicy {

    private final long delayMillis;
    private final int maxAttempts;
    private final double percentile;
    private final long minDelayMillis;

    private HedgingPolicy(long delayMillis, int maxAttempts, double percentile, long minDelayMillis) {
        this.delayMillis = delayMillis;
        this.maxAttempts = maxAttempts;
        this.percentile = percentile;
        this.minDelayMillis = minDelayMillis;
    }

    /** Two attempts at most, the second after {@code delayMillis} (&gt; 0; e.g. the method's p95 latency). */
    public static HedgingPolicy afterMillis(long delayMillis) {
        return of(delayMillis, 2);
    }

    /** Up to {@code maxAttempts} (2 to 5) attempts, one every {@code delayMillis} (&gt; 0) while none answered. */
    public static HedgingPolicy of(long delayMillis, int maxAttempts) {
        return new HedgingPolicy(Requires.positive(delayMillis, "delayMillis"),
                Requires.inRange(maxAttempts, 2, 5, "maxAttempts"), 0, 0);
    }

    /**
     * Two attempts at most, the second when the first has taken longer than {@code percentile} % of the method's
     * recent attempts (95: its p95), with the floor and fallback of the defaults
     * ({@code jupiter.rpc.hedging.min.delay.millis}, {@code jupiter.rpc.hedging.fallback.delay.millis}).
     *
     * @param percentile 50 to 99.9
     */
    public static HedgingPolicy afterLatencyPercentile(double percentile) {
        return afterLatencyPercentile(percentile, JupiterSettings.HEDGING_MIN_DELAY_MILLIS.get(),
                JupiterSettings.HEDGING_FALLBACK_DELAY_MILLIS.get(), 2);
    }

    /**
     * Up to {@code maxAttempts} attempts, one each time the attempts so far have taken longer than {@code percentile}
     * % of the method's recent attempts on this proxy, measured by the proxy itself (a bounded histogram of the
     * method's latest attempts, two generations of up to 1,000 attempts or 10 s each).
     *
     * @param percentile          50 to 99.9
     * @param minDelayMillis      the shortest delay, whatever the latency (&gt; 0; the client's timer ticks every
     *                            10 ms, so a shorter delay is kept only to the tick)
     * @param fallbackDelayMillis the delay until the method's attempts reach
     *                            {@code jupiter.rpc.hedging.min.samples} (&gt; 0)
     * @param maxAttempts         2 to 5
     */
    public static HedgingPolicy afterLatencyPercentile(double percentile, long minDelayMillis,
                                                       long fallbackDelayMillis, int maxAttempts) {
        Requires.argument(percentile >= 50 && percentile <= 99.9, "percentile: " + percentile
                + " (expected: 50 to 99.9)");
        return new HedgingPolicy(Requires.positive(fallbackDelayMillis, "fallbackDelayMillis"),
                Requires.inRange(maxAttempts, 2, 5, "maxAttempts"), percentile,
                Requires.positive(minDelayMillis, "minDelayMillis"));
    }

    /** Whether the delay follows the method's latency ({@link #afterLatencyPercentile}). */
    public boolean followsLatency() {
        return percentile > 0;
    }

    /** The fixed delay; for a policy that follows the latency, the fallback delay. */
    public long delayMillis() {
        return delayMillis;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    /** The latency percentile the delay follows; 0 for a fixed delay. */
    public double percentile() {
        return percentile;
    }

    /** The shortest delay of a policy that follows the latency; 0 for a fixed delay. */
    public long minDelayMillis() {
        return minDelayMillis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HedgingPolicy p && p.delayMillis == delayMillis && p.maxAttempts == maxAttempts
                && Double.compare(p.percentile, percentile) == 0 && p.minDelayMillis == minDelayMillis;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(delayMillis) * 31 + maxAttempts * 17 + Double.hashCode(percentile) + (int) minDelayMillis;
    }

    @Override
    public String toString() {
        if (followsLatency()) {
            return "HedgingPolicy(" + maxAttempts + " attempts, at the p" + percentile + " latency, at least "
                    + minDelayMillis + " ms, " + delayMillis + " ms until enough attempts were seen)";
        }
        return "HedgingPolicy(" + maxAttempts + " attempts, every " + delayMillis + " ms)";
    }
}
