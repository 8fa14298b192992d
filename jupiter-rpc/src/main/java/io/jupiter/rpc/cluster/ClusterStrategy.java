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
 * </ul>
 */
public final class ClusterStrategy {

    /** The kinds of strategy. */
    public enum Kind { FAIL_FAST, FAIL_OVER, FAIL_SAFE }

    private static final ClusterStrategy FAIL_FAST = new ClusterStrategy(Kind.FAIL_FAST, 0);
    private static final ClusterStrategy FAIL_SAFE = new ClusterStrategy(Kind.FAIL_SAFE, 0);

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
