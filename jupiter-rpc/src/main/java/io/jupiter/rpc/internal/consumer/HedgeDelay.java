package io.jupiter.rpc.internal.consumer;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.cluster.HedgingPolicy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The hedging delay of one method of one proxy. For a fixed {@link HedgingPolicy} it is the policy's delay; for one
 * that follows the latency it is a percentile of the method's recent attempts, kept in a small histogram: buckets of
 * a quarter octave (at most 19 % apart, enough for a delay) from 1 µs to 18 minutes, in two generations, each
 * holding up to 1,000 attempts or 10 s of them; the estimate counts both, so it always rests on the last 1,000 to
 * 2,000 attempts (10 to 20 s of a method called less often). Until {@code jupiter.rpc.hedging.min.samples} of them
 * were seen, the fallback delay holds. Recording is two atomic increments; the percentile is computed again every
 * 16 attempts and at each new generation (a walk over 2 x 120 counters), never on the call's path, which reads one
 * volatile field.
 */
final class HedgeDelay {

    private static final int SUB_BUCKET_BITS = 2;
    private static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    /** Values below this (in µs) have a bucket each. */
    private static final int LINEAR = 2 * SUB_BUCKETS;
    private static final int MAX_EXPONENT = 30;
    private static final int BUCKETS = LINEAR + (MAX_EXPONENT - (SUB_BUCKET_BITS + 1) + 1) * SUB_BUCKETS;
    private static final int GENERATION_SAMPLES = 1_000;
    private static final long GENERATION_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final int RECOMPUTE_EVERY = 16;

    private final long fixedNanos;
    private final long minNanos;
    private final double percentile;
    private final int minSamples;
    private volatile Generation current;
    private volatile Generation previous;
    private volatile long delayNanos;

    private static final class Generation {
        final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
        final AtomicInteger total = new AtomicInteger();
        final long startNanos;

        Generation(long startNanos) {
            this.startNanos = startNanos;
        }
    }

    HedgeDelay(HedgingPolicy policy) {
        this.fixedNanos = TimeUnit.MILLISECONDS.toNanos(policy.delayMillis());
        this.minNanos = TimeUnit.MILLISECONDS.toNanos(policy.minDelayMillis());
        this.percentile = policy.percentile();
        this.minSamples = JupiterSettings.HEDGING_MIN_SAMPLES.get();
        this.delayNanos = fixedNanos;
        if (policy.followsLatency()) {
            long now = System.nanoTime();
            current = new Generation(now);
            previous = new Generation(now);
        }
    }

    /** The delay before the next attempt of a call of this method. */
    long nanos() {
        return delayNanos;
    }

    /** Whether attempts must be {@linkplain #observe observed}. */
    boolean followsLatency() {
        return current != null;
    }

    /** An attempt of the method took {@code nanos} (answered, or given up on after that long), at {@code nowNanos}. */
    void observe(long nanos, long nowNanos) {
        Generation g = current;
        g.counts.incrementAndGet(bucket(nanos));
        int seen = g.total.incrementAndGet();
        if (seen >= GENERATION_SAMPLES || nowNanos - g.startNanos >= GENERATION_NANOS) {
            rotate(g, nowNanos);
        } else if (seen % RECOMPUTE_EVERY == 0) {
            recompute();
        }
    }

    private synchronized void rotate(Generation full, long nowNanos) {
        if (current != full) {
            return; // another thread started the next generation
        }
        // A generation that ended long ago (the method was not called for a while) is too old to count.
        previous = nowNanos - full.startNanos < 2 * GENERATION_NANOS ? full : new Generation(nowNanos);
        current = new Generation(nowNanos);
        recompute();
    }

    private void recompute() {
        Generation a = previous;
        Generation b = current;
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            total += a.counts.get(i) + b.counts.get(i);
        }
        if (total < minSamples) {
            delayNanos = fixedNanos;
            return;
        }
        long rank = (long) Math.ceil(total * percentile / 100);
        long seen = 0;
        int i = 0;
        for (; i < BUCKETS - 1; i++) {
            seen += a.counts.get(i) + b.counts.get(i);
            if (seen >= rank) {
                break;
            }
        }
        delayNanos = Math.max(minNanos, TimeUnit.MICROSECONDS.toNanos(upperMicros(i)));
    }

    /** The bucket of a latency: one per µs below {@link #LINEAR}, then four per octave. */
    static int bucket(long nanos) {
        long micros = Math.min(Math.max(0, nanos / 1_000), (1L << (MAX_EXPONENT + 1)) - 1);
        if (micros < LINEAR) {
            return (int) micros;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(micros);
        int sub = (int) (micros >>> (exponent - SUB_BUCKET_BITS)) & (SUB_BUCKETS - 1);
        return LINEAR + (exponent - (SUB_BUCKET_BITS + 1)) * SUB_BUCKETS + sub;
    }

    /** The largest latency (µs) of a bucket. */
    static long upperMicros(int bucket) {
        if (bucket < LINEAR) {
            return bucket;
        }
        int exponent = (bucket - LINEAR) / SUB_BUCKETS + SUB_BUCKET_BITS + 1;
        int sub = (bucket - LINEAR) % SUB_BUCKETS;
        long width = 1L << (exponent - SUB_BUCKET_BITS);
        return ((long) (SUB_BUCKETS + sub) << (exponent - SUB_BUCKET_BITS)) + width - 1;
    }
}
