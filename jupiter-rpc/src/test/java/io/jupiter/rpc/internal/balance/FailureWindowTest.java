package io.jupiter.rpc.internal.balance;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The sliding window of outlier ejection by failure rate: share, minimum volume, expiry slice by slice, bounds. */
class FailureWindowTest {

    private static final long SLICE = TimeUnit.MILLISECONDS.toNanos(100);

    @Test
    void countsTheShareOverTheWindowOnceTheVolumeIsReached() {
        FailureWindow window = new FailureWindow();
        long now = -7 * SLICE + 3; // nanoTime may be negative
        for (int i = 0; i < 10; i++) {
            window.record(false, now + i * SLICE / 4, SLICE);
            window.record(true, now + i * SLICE / 4, SLICE);
        }
        long end = now + 3 * SLICE;
        assertThat(window.exceeds(50, 20, end, SLICE)).isTrue();
        assertThat(window.exceeds(51, 20, end, SLICE)).isFalse();
        assertThat(window.exceeds(50, 21, end, SLICE)).as("below the minimum volume").isFalse();
    }

    @Test
    void attemptsLeaveTheWindowASliceAtATime() {
        FailureWindow window = new FailureWindow();
        long now = 1_000 * SLICE;
        for (int i = 0; i < 10; i++) {
            window.record(true, now, SLICE);
        }
        for (int i = 0; i < 10; i++) {
            window.record(false, now + 5 * SLICE, SLICE);
        }
        assertThat(window.exceeds(50, 20, now + 9 * SLICE, SLICE)).isTrue();
        // The failures' slice is out of the 10-slice window; the answers remain.
        assertThat(window.exceeds(1, 10, now + 10 * SLICE, SLICE)).isFalse();
        assertThat(window.exceeds(0, 10, now + 10 * SLICE, SLICE)).isTrue();
        // A slice reused a window later starts from nothing.
        window.record(true, now + 10 * SLICE, SLICE);
        assertThat(window.exceeds(0, 12, now + 10 * SLICE, SLICE)).isFalse();
        window.clear();
        assertThat(window.exceeds(0, 1, now + 10 * SLICE, SLICE)).isFalse();
    }

    @Test
    void aFullSliceStopsCountingInsteadOfOverflowing() {
        FailureWindow window = new FailureWindow();
        for (int i = 0; i < 70_000; i++) {
            window.record(i % 4 == 0, 0, SLICE);
        }
        assertThat(window.exceeds(25, 65_535, 0, SLICE)).isTrue();
        assertThat(window.exceeds(26, 1, 0, SLICE)).isFalse();
        assertThat(window.exceeds(0, 65_536, 0, SLICE)).isFalse();
    }
}
