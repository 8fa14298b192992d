package io.jupiter.rpc.balance;

import io.jupiter.common.config.JupiterSettings;
import java.util.Locale;

/**
 * How a proxy picks a provider for each call; {@link #LEAST_LATENCY} unless the proxy says otherwise
 * ({@code ProxyBuilder.loadBalancer}) or {@code -Djupiter.rpc.load.balancer} names another for every proxy. Every
 * balancer uses the providers' published weights, scaled down while a provider warms up (see
 * {@code jupiter.rpc.load.balancer.warm.up.millis}), and skips providers with no open connection or ejected as
 * outliers. A weight of 0 means "only when no provider with a weight is available".
 */
public enum LoadBalancerType {
    /** Weighted random (1.3.1's default with a registry). */
    RANDOM,
    /**
     * Smooth weighted round robin (nginx's); plain rotation, without locking, while all weights are equal (1.3.1's
     * default for direct addresses).
     */
    ROUND_ROBIN,
    /** Power of two choices: two weighted-random candidates, the one with fewer calls in flight wins. */
    LEAST_ACTIVE,
    /**
     * Least latency, power of two choices (after Finagle's and Linkerd's peak EWMA), the default: two distinct
     * weighted-random candidates, each costed as its recent latency times its calls in flight plus one; the cheaper
     * wins when the other costs more than twice as much, else a coin weighted by their weights decides (so providers
     * alike in latency share the calls by weight). The latency is a moving average that each response moves a tenth
     * of the way, decaying toward 0 while the provider gets no calls (time constant
     * {@code jupiter.rpc.load.balancer.latency.decay.millis}, 1 s): a provider that turns slow loses its calls at its
     * first slow responses (and calls piling up in flight on it move the next ones away at once), is tried again
     * every few seconds, and gets its share back at the first of those that is fast.
     */
    LEAST_LATENCY;

    /**
     * The balancer of proxies that name none: {@code -Djupiter.rpc.load.balancer}, {@link #LEAST_LATENCY} by default.
     */
    public static LoadBalancerType byDefault() {
        return valueOf(JupiterSettings.LOAD_BALANCER.get().toUpperCase(Locale.ROOT));
    }
}
