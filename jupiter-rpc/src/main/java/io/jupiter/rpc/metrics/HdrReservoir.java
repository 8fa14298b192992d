package io.jupiter.rpc.metrics;

import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * A Dropwizard reservoir on HdrHistogram, striped by thread. Each of Jupiter's own threads (IO and pool threads, all
 * {@link FastThreadLocalThread}s, a fixed set) writes its own {@link SingleWriterRecorder}, so recording touches no
 * memory another thread writes (one shared recorder cost about 1 µs a call under contention from a provider pool;
 * see {@code MetricsBenchmark}) and allocates nothing after a thread's first value. Any other thread (an
 * application's, or a virtual thread per call, of which there may be millions) writes one of a few shared
 * {@link Recorder}s chosen by its id, so the memory stays bounded however many threads come and go. A snapshot
 * merges them all; it covers everything since the start, with 2 significant digits.
 */
final class HdrReservoir implements Reservoir {

    /**
     * Values within 1 %: a thread's histogram of latencies up to seconds then has a few thousand counters instead of
     * tens of thousands with 3 digits, so recording stays in cache (measured: with 3 digits, metrics cost a provider
     * call about 1 µs end to end, far more than the recording instructions).
     */
    private static final int SIGNIFICANT_DIGITS = 2;
    /** Shared recorders for threads that are not Jupiter's: a power of two, twice the cores at least. */
    private static final int SHARED_STRIPES = Integer.highestOneBit(
            Math.max(4, Runtime.getRuntime().availableProcessors() * 2) * 2 - 1);

    private final FastThreadLocal<SingleWriterRecorder> own = new FastThreadLocal<>() {
        @Override
        protected SingleWriterRecorder initialValue() {
            SingleWriterRecorder recorder = new SingleWriterRecorder(SIGNIFICANT_DIGITS);
            recorders.add(recorder);
            return recorder;
        }
    };
    private final CopyOnWriteArrayList<SingleWriterRecorder> recorders = new CopyOnWriteArrayList<>();
    private final Recorder[] shared = new Recorder[SHARED_STRIPES];
    /** Everything recorded so far; guarded by {@code this} (readers only). */
    private final Histogram total = new Histogram(SIGNIFICANT_DIGITS);

    HdrReservoir() {
        for (int i = 0; i < shared.length; i++) {
            shared[i] = new Recorder(SIGNIFICANT_DIGITS);
        }
    }

    @Override
    public int size() {
        return (int) Math.min(Integer.MAX_VALUE, snapshotHistogram().getTotalCount());
    }

    @Override
    public void update(long value) {
        long recorded = Math.max(0L, value);
        Thread thread = Thread.currentThread();
        if (thread instanceof FastThreadLocalThread) {
            own.get().recordValue(recorded);
        } else {
            shared[(int) (thread.getId() & (SHARED_STRIPES - 1))].recordValue(recorded);
        }
    }

    /** Recorders of Jupiter's own threads so far (the shared ones aside). */
    int ownRecorders() {
        return recorders.size();
    }

    @Override
    public Snapshot getSnapshot() {
        return new HdrSnapshot(snapshotHistogram());
    }

    /** How many values were recorded since the start. */
    synchronized long count() {
        collect();
        return total.getTotalCount();
    }

    private synchronized Histogram snapshotHistogram() {
        collect();
        return total.copy();
    }

    private void collect() {
        for (SingleWriterRecorder recorder : recorders) {
            // A recorder takes back only histograms it handed out itself, so no recycling across threads.
            total.add(recorder.getIntervalHistogram());
        }
        for (Recorder recorder : shared) {
            total.add(recorder.getIntervalHistogram());
        }
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
