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
    void aQueueWhoseShortestWaitStaysAboveTheTargetForAnIntervalStandsThenShedsBeyondTheInterval() {
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
        // An interval that still sheds keeps it standing; one that sheds nothing ends it.
        now += 101 * MS;
        limit.limitBroken(1 * MS, now);
        assertThat(limit.standing()).isTrue();
        now += 101 * MS;
        limit.limitBroken(1 * MS, now);
        assertThat(limit.standing()).isFalse();
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
