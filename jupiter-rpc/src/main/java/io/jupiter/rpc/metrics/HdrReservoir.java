package io.jupiter.rpc.metrics;

import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * A Dropwizard reservoir on HdrHistogram, striped by thread: each recording thread writes its own
 * {@link SingleWriterRecorder}, so recording touches no memory another thread writes (one shared recorder cost
 * about 1 µs a call under contention from a provider pool; see {@code MetricsBenchmark}) and allocates nothing after
 * a thread's first value. A snapshot merges every thread's values; it covers everything since the start, with 3
 * significant digits.
 */
final class HdrReservoir implements Reservoir {

    private final ThreadLocal<SingleWriterRecorder> own = ThreadLocal.withInitial(this::newRecorder);
    private final CopyOnWriteArrayList<SingleWriterRecorder> recorders = new CopyOnWriteArrayList<>();
    /** Everything recorded so far; guarded by {@code this} (readers only). */
    private final Histogram total = new Histogram(3);

    private SingleWriterRecorder newRecorder() {
        SingleWriterRecorder recorder = new SingleWriterRecorder(3);
        recorders.add(recorder);
        return recorder;
    }

    @Override
    public int size() {
        return (int) Math.min(Integer.MAX_VALUE, snapshotHistogram().getTotalCount());
    }

    @Override
    public void update(long value) {
        own.get().recordValue(Math.max(0L, value));
    }

    @Override
    public Snapshot getSnapshot() {
        return new HdrSnapshot(snapshotHistogram());
    }

    private synchronized Histogram snapshotHistogram() {
        for (SingleWriterRecorder recorder : recorders) {
            // A recorder takes back only histograms it handed out itself, so no recycling across threads.
            total.add(recorder.getIntervalHistogram());
        }
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
