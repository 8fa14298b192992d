package io.jupiter.rpc.internal.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.cluster.HedgingPolicy;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The hedging delay that follows a method's latency: buckets, fallback, percentile, floor, generations. */
class HedgeDelayTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void everyLatencyFallsInABucketWhoseUpperEdgeIsWithinAQuarterOctave() {
        for (long micros = 0; micros < 5_000_000; micros += 1 + micros / 7) {
            int bucket = HedgeDelay.bucket(micros * 1_000);
            long upper = HedgeDelay.upperMicros(bucket);
            assertThat(upper).as("%d µs", micros).isGreaterThanOrEqualTo(micros);
            assertThat(upper).as("%d µs", micros).isLessThanOrEqualTo(Math.max(micros, micros * 5 / 4 + 1));
            if (bucket > 0) {
                assertThat(HedgeDelay.upperMicros(bucket - 1)).isLessThan(micros);
            }
        }
        assertThat(HedgeDelay.bucket(Long.MAX_VALUE)).isEqualTo(HedgeDelay.bucket(TimeUnit.HOURS.toNanos(1)));
        assertThat(HedgeDelay.bucket(-5)).isZero();
    }

    @Test
    void aFixedPolicyKeepsItsDelay() {
        HedgeDelay delay = new HedgeDelay(HedgingPolicy.afterMillis(40));
        assertThat(delay.followsLatency()).isFalse();
        assertThat(delay.nanos()).isEqualTo(40 * MS);
    }

    @Test
    void theFallbackHoldsUntilEnoughAttemptsThenThePercentile() {
        HedgeDelay delay = new HedgeDelay(HedgingPolicy.afterLatencyPercentile(95, 1, 500, 2));
        long now = System.nanoTime();
        for (int i = 0; i < 90; i++) {
            delay.observe(2 * MS, now);
        }
        assertThat(delay.nanos()).as("fewer than 100 attempts").isEqualTo(500 * MS);
        for (int i = 0; i < 118; i++) {
            delay.observe(i % 20 == 0 ? 80 * MS : 2 * MS, now);
        }
        // 208 attempts (computed every 16): 6 at 80 ms (3 %), the rest at 2 ms: the p95 is 2 ms (within a bucket).
        assertThat(delay.nanos()).isBetween(2 * MS, 3 * MS);
        for (int i = 0; i < 32; i++) {
            delay.observe(80 * MS, now);
        }
        // 38 of 240 at 80 ms now: the p95 is there.
        assertThat(delay.nanos()).isBetween(80 * MS, 100 * MS);
    }

    @Test
    void neverBelowTheFloor() {
        HedgeDelay delay = new HedgeDelay(HedgingPolicy.afterLatencyPercentile(99, 10, 500, 2));
        long now = System.nanoTime();
        for (int i = 0; i < 400; i++) {
            delay.observe(MS / 10, now);
        }
        assertThat(delay.nanos()).isEqualTo(10 * MS);
    }

    @Test
    void oldAttemptsAgeOut() {
        HedgeDelay delay = new HedgeDelay(HedgingPolicy.afterLatencyPercentile(50, 1, 500, 2));
        long now = System.nanoTime();
        for (int i = 0; i < 2_000; i++) {
            delay.observe(50 * MS, now);
        }
        assertThat(delay.nanos()).isBetween(50 * MS, 63 * MS);
        // The method turns fast: after two generations only fast attempts count.
        for (int i = 0; i < 2_000; i++) {
            delay.observe(5 * MS, now);
        }
        assertThat(delay.nanos()).isBetween(5 * MS, 7 * MS);
        // Silence for a minute: the next generation starts without the old ones, so the fallback holds again.
        delay.observe(5 * MS, now + TimeUnit.MINUTES.toNanos(1));
        assertThat(delay.nanos()).isEqualTo(500 * MS);
    }
}
