package io.jupiter.rpc.internal.balance;

/**
 * A provider's recent latency as the least-latency balancer sees it: a moving average that each response moves a
 * tenth of the way ({@link #SHARE}), so one slow response among fast ones moves it little and a provider that turns
 * slow shows it at its first slow responses. Per response, not per time: a provider that gets few calls (a light
 * weight) keeps as steady an average as one that gets many. A "peak" average, which jumps to any slower response,
 * sits at a busy provider's worst recent response, and a time-weighted one makes each response of a rarely called
 * provider weigh a lot: both overrode published weights. Reading decays the average toward 0 by the time since the
 * provider's last response, with the time constant its client was given
 * ({@link EndpointSettings#latencyDecayNanos}; by default {@code jupiter.rpc.load.balancer.latency.decay.millis}), so
 * a provider that was slow and gets no calls looks better as time passes, and is tried again.
 *
 * <p>Racy on purpose: two responses that update it at once may lose one observation; no lock on the call path.
 */
final class LatencyEwma {

    /** How far one response moves the average towards itself. */
    static final double SHARE = 0.1;
    /** The time constant of the decay, this client's. */
    private final double decayNanos;

    private volatile double averageNanos;
    private volatile long updatedNanos;

    LatencyEwma(long decayNanos) {
        this.decayNanos = decayNanos;
    }

    /** An attempt took {@code nanos} (answered, failed or given up on, whichever came first). */
    void observe(long nanos, long nowNanos) {
        double average = nanos(nowNanos);
        averageNanos = Math.max(1, average == 0 ? nanos : average + SHARE * (nanos - average));
        updatedNanos = nowNanos;
    }

    /** The average, decayed by the time since the last response; 0 before the first one. */
    double nanos(long nowNanos) {
        double average = averageNanos;
        if (average == 0) {
            return 0;
        }
        return average * Math.exp(-Math.max(0, nowNanos - updatedNanos) / decayNanos);
    }
}
