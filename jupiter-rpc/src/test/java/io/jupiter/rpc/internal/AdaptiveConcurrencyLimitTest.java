package io.jupiter.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The limit alone, fed latencies directly: no clock, no threads. */
class AdaptiveConcurrencyLimitTest {

    /** Takes every permit there is, then gives them all back, each after {@code nanos}. */
    private static void busyRound(AdaptiveConcurrencyLimit limit, long nanos) {
        int taken = 0;
        while (limit.tryAcquire()) {
            taken++;
        }
        assertThat(taken).isEqualTo(limit.limit());
        for (int i = 0; i < taken; i++) {
            limit.release(nanos);
        }
        assertThat(limit.inFlight()).isZero();
    }

    private static long millis(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void refusesBeyondTheLimitAndAdmitsAgainOnceAPermitIsBack() {
        AdaptiveConcurrencyLimit limit = new AdaptiveConcurrencyLimit(5, 1, 10);
        for (int i = 0; i < 5; i++) {
            assertThat(limit.tryAcquire()).isTrue();
        }
        assertThat(limit.tryAcquire()).isFalse();
        assertThat(limit.inFlight()).isEqualTo(5);
        limit.release(millis(1));
        assertThat(limit.tryAcquire()).isTrue();
        assertThat(limit.toString()).contains("adaptive concurrency limit 5", "5 in flight");
    }

    @Test
    void shrinksWhenLatencyRisesWithConcurrencyAndGrowsBackWhenItFalls() {
        AdaptiveConcurrencyLimit limit = new AdaptiveConcurrencyLimit(20, 4, 1000);
        for (int i = 0; i < 5; i++) {
            busyRound(limit, millis(10)); // the provider's own time, the whole limit in use
        }
        int learned = limit.limit();
        assertThat(learned).as("grows while latency stays where it was").isGreaterThan(20);

        for (int i = 0; i < 20; i++) {
            busyRound(limit, millis(40)); // the same work, now waiting behind the others: four times the time
        }
        int shrunk = limit.limit();
        assertThat(shrunk).as("shrinks once latency rises with concurrency").isLessThan(learned / 2);

        for (int i = 0; i < 30; i++) {
            busyRound(limit, millis(10));
        }
        assertThat(limit.limit()).as("grows back once latency falls").isGreaterThan(shrunk * 2);
    }

    @Test
    void staysWithinItsBounds() {
        AdaptiveConcurrencyLimit limit = new AdaptiveConcurrencyLimit(20, 4, 40);
        for (int i = 0; i < 200; i++) {
            busyRound(limit, millis(1));
        }
        assertThat(limit.limit()).as("never above max").isEqualTo(40);
        // Ever slower (5 % a round): the long-term latency never catches up, so the limit shrinks as far as it may.
        double nanos = millis(1);
        for (int round = 0; round < 600 && limit.limit() > 4; round++) {
            nanos *= 1.05;
            busyRound(limit, (long) nanos);
            assertThat(limit.limit()).isGreaterThanOrEqualTo(4);
        }
        assertThat(limit.limit()).as("never below min").isEqualTo(4);
    }

    @Test
    void aWindowWithMostPermitsUnusedDoesNotMoveTheLimit() {
        AdaptiveConcurrencyLimit limit = new AdaptiveConcurrencyLimit(20, 4, 1000);
        busyRound(limit, millis(10));
        int before = limit.limit();
        for (int i = 0; i < 100; i++) { // one call at a time, however slow: the load set its latency
            assertThat(limit.tryAcquire()).isTrue();
            limit.release(millis(500));
        }
        assertThat(limit.limit()).isEqualTo(before);
    }

    @Test
    void rejectsBoundsThatDoNotHold() {
        assertThatThrownBy(() -> new AdaptiveConcurrencyLimit(20, 0, 100)).hasMessageContaining("min");
        assertThatThrownBy(() -> new AdaptiveConcurrencyLimit(20, 10, 5)).hasMessageContaining("max");
        assertThatThrownBy(() -> new AdaptiveConcurrencyLimit(200, 10, 100)).hasMessageContaining("initial");
    }
}
