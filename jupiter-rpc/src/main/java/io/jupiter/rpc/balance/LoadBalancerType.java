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
    LEAST_ACTIVE
}
