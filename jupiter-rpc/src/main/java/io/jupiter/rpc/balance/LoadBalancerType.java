package io.jupiter.rpc.balance;

import io.jupiter.common.config.JupiterSettings;
import java.util.Locale;

/**
 * How a proxy picks a provider for each call; {@link #PEAK_EWMA} unless the proxy says otherwise
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
     * Peak-EWMA power of two choices (Finagle's and Linkerd's): two distinct weighted-random candidates, the one with
     * the lower cost wins, where the cost is the provider's recent latency times its calls in flight plus one,
     * divided by its weight. The latency is an exponentially weighted moving average that jumps to a slower response
     * at once and forgets it with a time constant of {@code jupiter.rpc.load.balancer.peak.ewma.decay.millis} (2 s),
     * so a provider that turns slow loses its share within a few calls and gets it back within seconds of recovering.
     */
    PEAK_EWMA;

    /** The balancer of proxies that name none: {@code -Djupiter.rpc.load.balancer}, {@link #PEAK_EWMA} by default. */
    public static LoadBalancerType byDefault() {
        return valueOf(JupiterSettings.LOAD_BALANCER.get().toUpperCase(Locale.ROOT));
    }
}
