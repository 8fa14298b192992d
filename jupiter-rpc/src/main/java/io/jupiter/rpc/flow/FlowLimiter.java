package io.jupiter.rpc.flow;

/**
 * Admits or refuses one call. {@link #release()} is called once for every admitted call when it ended, so a limiter
 * may count calls in progress. Implementations must be thread-safe and must not block.
 *
 * @see FlowLimiters
 */
public interface FlowLimiter {

    /** Whether the call may run now. */
    boolean tryAcquire();

    /** An admitted call ended. */
    default void release() {
    }
}
