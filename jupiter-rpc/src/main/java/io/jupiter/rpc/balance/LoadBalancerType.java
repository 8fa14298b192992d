package io.jupiter.rpc.balance;

/**
 * How a proxy picks a provider for each call. Every balancer uses the providers' published weights, scaled down
 * while a provider warms up (see {@code jupiter.rpc.load.balancer.warm.up.millis}), and skips providers with no open
 * connection. A weight of 0 means "only when no provider with a weight is available".
 */
public enum LoadBalancerType {
    /** Weighted random; the default with a registry. */
    RANDOM,
    /**
     * Smooth weighted round robin (nginx's); plain rotation, without locking, while all weights are equal. The
     * default for direct addresses.
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
    PEAK_EWMA
}
