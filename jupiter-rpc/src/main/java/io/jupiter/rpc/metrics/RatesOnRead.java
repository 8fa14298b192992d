package io.jupiter.rpc.metrics;

import com.codahale.metrics.Clock;
import com.codahale.metrics.EWMA;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MovingAverages;
import java.util.concurrent.TimeUnit;

/**
 * The 1-, 5- and 15-minute rates of a {@link Meter}, computed when they are read instead of when the meter is marked:
 * marking then costs the meter's own {@code LongAdder} add and nothing else (Dropwizard's default reads the clock and
 * adds to three more counters on every mark, three times per call on the timers of a busy provider).
 *
 * <p>When read, the count added since the previous read is spread evenly over the 5-second ticks that passed, and the
 * three exponentially weighted averages are ticked that many times. The rates are therefore exact for a steady load
 * and smooth a burst over the interval between two reads (a console or a scrape every few seconds makes that
 * interval short).
 */
final class RatesOnRead implements MovingAverages {

    private static final long TICK_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** Ticks replayed at most (6 hours): by then even the 15-minute average has forgotten everything older. */
    private static final long MAX_TICKS = 4320;

    private final EWMA m1 = EWMA.oneMinuteEWMA();
    private final EWMA m5 = EWMA.fiveMinuteEWMA();
    private final EWMA m15 = EWMA.fifteenMinuteEWMA();
    private final Clock clock;
    private Meter meter;
    private long lastCount;
    private long lastTick;

    private RatesOnRead(Clock clock) {
        this.clock = clock;
        this.lastTick = clock.getTick();
    }

    /** A meter whose moving averages are computed on read. */
    static Meter newMeter() {
        return newMeter(Clock.defaultClock());
    }

    /** The same, on a given clock (tests). */
    static Meter newMeter(Clock clock) {
        RatesOnRead rates = new RatesOnRead(clock);
        Meter meter = new Meter(rates, clock);
        rates.meter = meter;
        return meter;
    }

    /**
     * A timer's meter that counts nothing itself: its count is {@code histogram}'s, which the timer updates on the
     * same call, so a call costs one recording instead of three.
     */
    static Meter newMeterCountedBy(Histogram histogram) {
        Clock clock = Clock.defaultClock();
        RatesOnRead rates = new RatesOnRead(clock);
        Meter meter = new HistogramCountedMeter(rates, clock, histogram);
        rates.meter = meter;
        return meter;
    }

    /** See {@link #newMeterCountedBy}. */
    private static final class HistogramCountedMeter extends Meter {
        private final Histogram histogram;

        HistogramCountedMeter(MovingAverages rates, Clock clock, Histogram histogram) {
            super(rates, clock);
            this.histogram = histogram;
        }

        @Override
        public void mark(long n) {
            // Counted by the histogram.
        }

        @Override
        public long getCount() {
            return histogram.getCount();
        }
    }

    @Override
    public void tickIfNecessary() {
        // Called on every mark: nothing to do here, the averages catch up when read.
    }

    @Override
    public void update(long n) {
        // The meter's own count is the source; see catchUp().
    }

    @Override
    public double getM1Rate() {
        catchUp();
        return m1.getRate(TimeUnit.SECONDS);
    }

    @Override
    public double getM5Rate() {
        catchUp();
        return m5.getRate(TimeUnit.SECONDS);
    }

    @Override
    public double getM15Rate() {
        catchUp();
        return m15.getRate(TimeUnit.SECONDS);
    }

    private synchronized void catchUp() {
        long ticks = (clock.getTick() - lastTick) / TICK_NANOS;
        if (ticks <= 0) {
            return;
        }
        lastTick += ticks * TICK_NANOS;
        long count = meter.getCount();
        long added = count - lastCount;
        lastCount = count;
        long replayed = Math.min(ticks, MAX_TICKS);
        long perTick = added / ticks;
        long remainder = added % ticks;
        for (long i = ticks - replayed; i < ticks; i++) {
            long n = perTick + (i < remainder ? 1 : 0);
            m1.update(n);
            m5.update(n);
            m15.update(n);
            m1.tick();
            m5.tick();
            m15.tick();
        }
    }
}
