package io.jupiter.rpc.internal.balance;

import io.jupiter.transport.ConnectionGroup;
import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One provider as a proxy sees it: its connections, its published weight, since when it is known (for warm-up)
 * and how many of this proxy's calls are in flight on it.
 */
public final class Endpoint {

    /** Below this share of its weight a warming provider does not go, so it gets some traffic at once. */
    private static final double MIN_WARM_UP_SHARE = 0.01;

    private final SocketAddress address;
    private final ConnectionGroup group;
    private final int weight;
    private final int connCount;
    private final long sinceNanos;
    private final long warmUpNanos;
    private final AtomicInteger active = new AtomicInteger();
    /** Smooth round robin's running weight; guarded by the round-robin balancer's lock. */
    double current;

    public Endpoint(SocketAddress address, ConnectionGroup group, int weight, int connCount, long warmUpNanos) {
        this.address = address;
        this.group = group;
        this.weight = weight;
        this.connCount = connCount;
        this.sinceNanos = System.nanoTime();
        this.warmUpNanos = warmUpNanos;
    }

    public SocketAddress address() {
        return address;
    }

    public ConnectionGroup group() {
        return group;
    }

    public int weight() {
        return weight;
    }

    public int connCount() {
        return connCount;
    }

    public boolean isAvailable() {
        return group.isAvailable();
    }

    public AtomicInteger active() {
        return active;
    }

    /**
     * The weight now: the published weight, scaled linearly from 1 % to 100 % over the warm-up. Kept as a double, so
     * small weights early in the warm-up never round to zero.
     */
    public double weightAt(long nowNanos) {
        if (weight == 0) {
            return 0;
        }
        long up = nowNanos - sinceNanos;
        if (warmUpNanos <= 0 || up >= warmUpNanos) {
            return weight;
        }
        return weight * Math.max(MIN_WARM_UP_SHARE, (double) up / warmUpNanos);
    }

    /** Whether the warm-up is over. */
    public boolean warm(long nowNanos) {
        return warmUpNanos <= 0 || nowNanos - sinceNanos >= warmUpNanos;
    }

    @Override
    public String toString() {
        return address + "(weight " + weight + ')';
    }
}
