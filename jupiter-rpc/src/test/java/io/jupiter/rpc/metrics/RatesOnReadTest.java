package io.jupiter.rpc.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.codahale.metrics.Clock;
import com.codahale.metrics.Meter;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RatesOnReadTest {

    private static final long TICK = TimeUnit.SECONDS.toNanos(5);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Clock clock = new Clock() {
        @Override
        public long getTick() {
            return now.get();
        }
    };
    private final Meter onRead = RatesOnRead.newMeter(clock);
    private final Meter dropwizard = new Meter(clock);

    @Test
    void readEveryTickGivesDropwizardsRates() {
        for (int tick = 0; tick < 40; tick++) {
            mark(100 + tick * 7);
            now.addAndGet(TICK + 1);
            assertSameRates();
        }
        assertThat(onRead.getCount()).isEqualTo(dropwizard.getCount());
    }

    @Test
    void aSteadyLoadReadRarelyGivesTheSameRatesAsReadOften() {
        // 400 marks per 5 s (80/s) for 3 minutes, read only at the end.
        for (int tick = 0; tick < 36; tick++) {
            mark(400);
            now.addAndGet(TICK + 1);
        }
        assertSameRates();
        assertThat(onRead.getOneMinuteRate()).isCloseTo(80.0, within(80.0 * 0.1));
    }

    @Test
    void nothingMarkedGivesZeroAndALongIdleForgetsTheOldRate() {
        now.addAndGet(TICK + 1);
        assertThat(onRead.getOneMinuteRate()).isZero();
        mark(10_000);
        now.addAndGet(TICK + 1);
        assertThat(onRead.getOneMinuteRate()).isPositive();
        now.addAndGet(TimeUnit.HOURS.toNanos(12));
        assertThat(onRead.getFifteenMinuteRate()).isCloseTo(0.0, within(1e-9));
    }

    private void mark(int n) {
        for (int i = 0; i < n; i++) {
            onRead.mark();
            dropwizard.mark();
        }
    }

    private void assertSameRates() {
        assertThat(onRead.getOneMinuteRate()).isCloseTo(dropwizard.getOneMinuteRate(), within(1e-6));
        assertThat(onRead.getFiveMinuteRate()).isCloseTo(dropwizard.getFiveMinuteRate(), within(1e-6));
        assertThat(onRead.getFifteenMinuteRate()).isCloseTo(dropwizard.getFifteenMinuteRate(), within(1e-6));
    }
}
