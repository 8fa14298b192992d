package io.jupiter.rpc.metrics;

import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A Dropwizard reservoir on an HdrHistogram {@link Recorder}: recording is wait-free and allocates nothing (a
 * decaying reservoir inserts into a skip list on most updates, which cost several percent of benchmark
 * throughput). A snapshot covers every value since the start, with 3 significant digits.
 */
final class HdrReservoir implements Reservoir {

    private final Recorder recorder = new Recorder(3);
    /** Everything recorded so far; guarded by {@code this} (readers only). */
    private final Histogram total = new Histogram(3);
    private Histogram interval;

    @Override
    public int size() {
        return (int) Math.min(Integer.MAX_VALUE, snapshotHistogram().getTotalCount());
    }

    @Override
    public void update(long value) {
        recorder.recordValue(Math.max(0L, value));
    }

    @Override
    public Snapshot getSnapshot() {
        return new HdrSnapshot(snapshotHistogram());
    }

    private synchronized Histogram snapshotHistogram() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return total.copy();
    }

    /** A snapshot over a private copy of the histogram. */
    private static final class HdrSnapshot extends Snapshot {
        private final Histogram histogram;

        HdrSnapshot(Histogram histogram) {
            this.histogram = histogram;
        }

        @Override
        public double getValue(double quantile) {
            return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(quantile * 100);
        }

        /** Not kept (it would be every value); an empty array. */
        @Override
        public long[] getValues() {
            return new long[0];
        }

        @Override
        public int size() {
            return (int) Math.min(Integer.MAX_VALUE, histogram.getTotalCount());
        }

        @Override
        public long getMax() {
            return histogram.getTotalCount() == 0 ? 0 : histogram.getMaxValue();
        }

        @Override
        public double getMean() {
            return histogram.getTotalCount() == 0 ? 0 : histogram.getMean();
        }

        @Override
        public long getMin() {
            return histogram.getTotalCount() == 0 ? 0 : histogram.getMinValue();
        }

        @Override
        public double getStdDev() {
            return histogram.getTotalCount() == 0 ? 0 : histogram.getStdDeviation();
        }

        @Override
        public void dump(OutputStream output) {
            histogram.outputPercentileDistribution(new PrintStream(output, true, StandardCharsets.UTF_8), 1.0);
        }
    }
}
