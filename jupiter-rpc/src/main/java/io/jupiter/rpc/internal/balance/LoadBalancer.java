package io.jupiter.rpc.internal.balance;

import io.jupiter.rpc.balance.LoadBalancerType;

/** Picks one available endpoint; thread-safe; allocates nothing per call. */
public interface LoadBalancer {

    /**
     * An available endpoint other than {@code excluded} (may be {@code null}), or {@code null} if there is none.
     */
    Endpoint select(Endpoint[] endpoints, Endpoint excluded);

    /** A new balancer of a type (one per proxy: round robin keeps state). */
    static LoadBalancer of(LoadBalancerType type) {
        return switch (type) {
            case RANDOM -> new WeightedRandomBalancer();
            case ROUND_ROBIN -> new SmoothRoundRobinBalancer();
            case LEAST_ACTIVE -> new LeastActiveBalancer();
            case LEAST_LATENCY -> new LeastLatencyBalancer();
        };
    }

    /** Whether the proxy must count calls in flight per endpoint for this balancer. */
    default boolean needsActiveCounts() {
        return false;
    }

    /** Whether the proxy must report each attempt's latency to its endpoint ({@link Endpoint#observeLatency}). */
    default boolean needsLatencies() {
        return false;
    }
}
