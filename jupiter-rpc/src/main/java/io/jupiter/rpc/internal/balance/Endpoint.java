package io.jupiter.rpc.internal.balance;

import io.jupiter.transport.ConnectionGroup;
import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

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
    /** Recent latency, for the peak-EWMA balancer. */
    final LatencyEwma latency;
    /** Timeouts and connection errors in a row (outlier ejection); racy updates only delay an ejection. */
    final AtomicInteger consecutiveFailures = new AtomicInteger();
    /** Attempts and failures over the failure-rate window (outlier ejection by failure rate). */
    final FailureWindow failureWindow = new FailureWindow();
    /** Until when this provider is out of load balancing (nanoTime); 0: it is in. Written under the detector's lock. */
    volatile long ejectedUntilNanos;
    /** Whether it came back from an ejection and has not answered since: its next failure ejects it again. */
    volatile boolean onProbation;
    /** Until when a call probing it on probation holds the probe (nanoTime, odd); 0: no probe in flight. */
    final AtomicLong probeUntilNanos = new AtomicLong();
    /** Ejections in a row (the next one lasts 2^n times the first); guarded by the detector's lock. */
    int timesEjected;
    /** When the last ejection ended, and how long it lasted; guarded by the detector's lock. */
    long returnedAtNanos;
    long lastEjectionNanos;

    /** @param settings its client's warm-up and latency decay */
    public Endpoint(SocketAddress address, ConnectionGroup group, int weight, int connCount,
                    EndpointSettings settings) {
        this.address = address;
        this.group = group;
        this.weight = weight;
        this.connCount = connCount;
        this.sinceNanos = System.nanoTime();
        this.warmUpNanos = settings.warmUpNanos();
        this.latency = new LatencyEwma(settings.latencyDecayNanos());
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

    /** Whether the outlier detector has it out of rotation or on probation (a probe's end must then be reported). */
    public boolean ejectedOrOnProbation() {
        return ejectedUntilNanos != 0 || onProbation;
    }

    public AtomicInteger active() {
        return active;
    }

    /** An attempt on this provider ended after {@code nanos}, at {@code nowNanos}. */
    public void observeLatency(long nanos, long nowNanos) {
        latency.observe(nanos, nowNanos);
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
