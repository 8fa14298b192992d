package io.jupiter.rpc.internal.balance;

import io.jupiter.common.config.JupiterSettings;
import java.util.concurrent.TimeUnit;

/**
 * A provider's recent latency as the peak-EWMA balancer sees it (Finagle's and Linkerd's peak EWMA): a response
 * slower than the average replaces it at once; a faster one, and the passing of time, pull it down with the time
 * constant {@code jupiter.rpc.load.balancer.peak.ewma.decay.millis}. Reading decays it to now, so a provider that
 * was slow and got no calls since looks better as time passes, and is tried again.
 *
 * <p>Racy on purpose: two responses that update it at once may lose one observation, which only makes the average a
 * little older; no lock on the call path.
 */
final class PeakEwma {

    static final double DECAY_NANOS = TimeUnit.MILLISECONDS.toNanos(JupiterSettings.PEAK_EWMA_DECAY_MILLIS.get());

    private volatile double averageNanos;
    private volatile long updatedNanos = System.nanoTime();

    /** An attempt took {@code nanos} (answered, failed or given up on, whichever came first). */
    void observe(long nanos, long nowNanos) {
        double average = averageNanos;
        if (nanos > average) {
            averageNanos = nanos;
        } else {
            double keep = Math.exp(-Math.max(0, nowNanos - updatedNanos) / DECAY_NANOS);
            averageNanos = average * keep + nanos * (1 - keep);
        }
        updatedNanos = nowNanos;
    }

    /** The average decayed to {@code nowNanos}; 0 before the first observation. */
    double nanos(long nowNanos) {
        double average = averageNanos;
        if (average == 0) {
            return 0;
        }
        return average * Math.exp(-Math.max(0, nowNanos - updatedNanos) / DECAY_NANOS);
    }
}
