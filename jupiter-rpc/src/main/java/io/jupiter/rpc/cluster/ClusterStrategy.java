package io.jupiter.rpc.cluster;

import io.jupiter.common.Requires;

/**
 * What a proxy does when a call fails: set per proxy ({@code ProxyBuilder.cluster}) or per method
 * ({@code ProxyBuilder.methodCluster}).
 *
 * <ul>
 *   <li>{@link #failFast()} (default): the failure is the caller's.</li>
 *   <li>{@link #failOver(int)}: retry up to N times on another provider, but only when the request surely did not
 *       run there (not sent, refused as busy, service not found), or, for methods marked idempotent, also after a
 *       timeout or a lost connection. Never after the method itself threw.</li>
 *   <li>{@link #failSafe()}: log the failure and return the return type's default value (null, 0, false).</li>
 *   <li>{@link #broadcast()}: send the call to every provider; asynchronous calls only.</li>
 * </ul>
 */
public final class ClusterStrategy {

    /** The kinds of strategy. */
    public enum Kind { FAIL_FAST, FAIL_OVER, FAIL_SAFE, BROADCAST }

    private static final ClusterStrategy FAIL_FAST = new ClusterStrategy(Kind.FAIL_FAST, 0);
    private static final ClusterStrategy FAIL_SAFE = new ClusterStrategy(Kind.FAIL_SAFE, 0);
    private static final ClusterStrategy BROADCAST = new ClusterStrategy(Kind.BROADCAST, 0);

    private final Kind kind;
    private final int retries;

    private ClusterStrategy(Kind kind, int retries) {
        this.kind = kind;
        this.retries = retries;
    }

    public static ClusterStrategy failFast() {
        return FAIL_FAST;
    }

    /** Up to {@code retries} more attempts (1 to 10; 1.3.1's default was 2). */
    public static ClusterStrategy failOver(int retries) {
        return new ClusterStrategy(Kind.FAIL_OVER, Requires.inRange(retries, 1, 10, "retries"));
    }

    public static ClusterStrategy failSafe() {
        return FAIL_SAFE;
    }

    /**
     * Sends the call to every provider the proxy knows, on one connection of each (1.3.1's BROADCAST dispatch), for
     * calls that notify everyone (cache invalidation, reload).
     *
     * <p>Only for asynchronous calls: a proxy built with {@code InvokeType.ASYNC}, or a method returning a future.
     * A synchronous method with this strategy makes {@code ProxyBuilder.build()} throw
     * {@link IllegalArgumentException} ("broadcast &amp; sync unsupported").
     *
     * <ul>
     *   <li>The call's future completes with a {@link java.util.List} of every provider's result, in provider order
     *       (by host, then port), once all succeeded. Its element type is the method's return type, whatever type
     *       the declared future has: declare {@code CompletableFuture<?>} (or use {@code InvokeType.ASYNC} with
     *       {@code InvokeFutureContext.future(List.class)}).</li>
     *   <li>It completes exceptionally with a {@link io.jupiter.rpc.exception.BroadcastException} at the first
     *       failure of any provider: the exception names that provider and carries its failure as the cause. The
     *       other providers' calls are not cancelled (they may have run already).</li>
     *   <li>A known provider without an open connection is waited for within the call's timeout; if one is still
     *       not connected then, nothing is sent to anyone and the call fails with a
     *       {@link io.jupiter.rpc.exception.RequestNotSentException} naming it.</li>
     *   <li>No retries: each provider gets the call exactly once.</li>
     * </ul>
     */
    public static ClusterStrategy broadcast() {
        return BROADCAST;
    }

    public Kind kind() {
        return kind;
    }

    /** Retries after the first attempt; 0 unless fail-over. */
    public int retries() {
        return retries;
    }

    @Override
    public String toString() {
        return kind == Kind.FAIL_OVER ? "FAIL_OVER(" + retries + ")" : kind.name();
    }
}
