package io.jupiter.rpc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The CoDel rule of the provider queue, on a clock the test moves. */
class SojournLimitTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aQueueThatDrainsWithinTheTargetNeverStandsHoweverLongOneTaskWaits() {
        SojournLimit limit = new SojournLimit(5 * MS, 100 * MS);
        long start = System.nanoTime();
        long now = start;
        for (int i = 0; i < 50; i++) {
            now += 10 * MS;
            // One task in ten waited long (behind a slow one), the others not at all.
            assertThat(limit.limitBroken(i % 10 == 0 ? 500 * MS : 0, now)).isZero();
        }
        assertThat(limit.standing()).isFalse();
    }

    @Test
    void aQueueWhoseShortestWaitStaysAboveTheTargetForAPeriodStandsThenShedsBeyondTheInterval() {
        SojournLimit limit = new SojournLimit(5 * MS, 100 * MS);
        long now = System.nanoTime(); // after the limit's first interval began, so that +101 ms ends it
        now += 101 * MS;
        assertThat(limit.limitBroken(20 * MS, now)).isZero(); // ends the first interval, which was fine
        for (int i = 0; i < 10; i++) {
            now += 10 * MS;
            assertThat(limit.limitBroken(20 * MS, now)).isZero();
        }
        now += 1 * MS;
        limit.limitBroken(20 * MS, now); // ends an interval whose shortest wait was 20 ms
        assertThat(limit.standing()).isTrue();
        assertThat(limit.limitBroken(50 * MS, now)).as("within the interval: runs").isZero();
        assertThat(limit.limitBroken(150 * MS, now)).as("beyond it: shed").isEqualTo(100 * MS);
        // A period whose shortest wait stayed above the target keeps it standing; one with a short wait ends it.
        now += 101 * MS;
        limit.limitBroken(1 * MS, now);
        assertThat(limit.standing()).isTrue();
        limit.limitBroken(1 * MS, now);
        limit.limitBroken(1 * MS, now);
        now += 101 * MS;
        limit.limitBroken(1 * MS, now);
        assertThat(limit.standing()).isFalse();
    }

    @Test
    void aLongIntervalIsJudgedEvery100MsButShedsOnlyBeyondTheIntervalAndServesTheNewestFromHalfOfIt() {
        SojournLimit limit = new SojournLimit(5 * MS, 1000 * MS);
        long now = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            now += 11 * MS;
            assertThat(limit.limitBroken(20 * MS, now)).isZero();
        }
        assertThat(limit.standing()).as("judged after 100 ms, not after the 1 s interval").isTrue();
        assertThat(limit.limitBroken(900 * MS, now)).as("within the interval: runs").isZero();
        assertThat(limit.limitBroken(1100 * MS, now)).as("beyond it: shed").isEqualTo(1000 * MS);
        assertThat(limit.newestFirst(400 * MS)).as("oldest below half the interval: first in, first out").isFalse();
        assertThat(limit.newestFirst(600 * MS)).as("oldest beyond half the interval: newest first").isTrue();
    }

    @Test
    void oneTaskThatWaitedBehindABlockedThreadIsNoStandingQueue() {
        SojournLimit limit = new SojournLimit(5 * MS, 100 * MS);
        long now = System.nanoTime(); // after the limit's first interval began, so that +101 ms ends it
        now += 101 * MS;
        limit.limitBroken(20 * MS, now); // the only task of its interval
        now += 400 * MS;
        assertThat(limit.limitBroken(400 * MS, now)).as("the next one, after a long wait, runs").isZero();
        assertThat(limit.standing()).isFalse();
    }

    @Test
    void aQueueFoundEmptyDoesNotStand() {
        SojournLimit limit = new SojournLimit(5 * MS, 100 * MS);
        long now = System.nanoTime(); // after the limit's first interval began, so that +101 ms ends it
        now += 101 * MS;
        limit.limitBroken(20 * MS, now);
        limit.queueEmpty();
        now += 101 * MS;
        limit.limitBroken(20 * MS, now);
        assertThat(limit.standing()).isFalse();
    }
}
