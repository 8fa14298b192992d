package io.jupiter.benchmark.driver;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The stream load: N server streams opened at once through {@link TargetClient#openStream}, each sending as fast as
 * its flow control allows, through a warm-up that is not counted, then a measured period. It counts the messages
 * that arrive in the measured period and records each one's delivery latency, from the server's send time carried in
 * the message to its arrival (both sides on one host read the same monotonic clock). A stream that ends before the
 * load does is a failure. {@link #fanOut} does the same with subscribers of one topic on the server.
 */
public final class StreamDriver {

    /** Messages per second delivered to all the subscribers of a fan-out together. */
    public static final int FAN_OUT_DELIVERIES_PER_SECOND = 10_000;

    /** How one stream is opened. */
    private interface Opener {
        AutoCloseable open(StreamListener listener) throws Exception;
    }

    private final Opener opener;
    private final int streams;
    private final Recorder latencies = new Recorder(3);
    private final LongAdder received = new LongAdder();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private volatile boolean measuring;
    private volatile boolean stopped;

    /** @param streams streams open at once, each read by its own listener */
    public StreamDriver(TargetClient client, int streams) {
        this(client::openStream, streams);
    }

    private StreamDriver(Opener opener, int streams) {
        if (streams < 1) {
            throw new IllegalArgumentException("streams: " + streams + " (expected: >= 1)");
        }
        this.opener = opener;
        this.streams = streams;
    }

    /**
     * The fan-out load: {@code subscribers} streams of one topic ({@link TargetClient#subscribe}), published to
     * at {@value #FAN_OUT_DELIVERIES_PER_SECOND} deliveries per second in total (so {@code subscribers} divides it
     * into the publishing rate, at least one message per second).
     */
    public static StreamDriver fanOut(TargetClient client, int subscribers) {
        int publishesPerSecond = Math.max(1, FAN_OUT_DELIVERIES_PER_SECOND / subscribers);
        return new StreamDriver(listener -> client.subscribe(publishesPerSecond, listener), subscribers);
    }

    /**
     * The client-stream load: {@code streams} client streams ({@link TargetClient#openUpload}), each sending as fast
     * as its flow control allows; the count is the messages the streams took in the measured period (what the
     * servers read, give or take each stream's window), with no latency recorded.
     */
    public static StreamDriver upload(TargetClient client, int streams) {
        return new StreamDriver(client::openUpload, streams);
    }

    /**
     * The bidirectional-stream load: {@code streams} streams ({@link TargetClient#openEcho}), each sending as fast as
     * its flow control allows while the server echoes every message back; the count is the echoes received in the
     * measured period, the latency each one's round trip (from the client's send time to the echo's arrival).
     */
    public static StreamDriver echo(TargetClient client, int streams) {
        return new StreamDriver(client::openEcho, streams);
    }

    /**
     * Opens the streams, runs the warm-up and the measured period, cancels the streams and returns the result:
     * {@link LoadResult#count()} is the messages received in the measured period.
     *
     * @throws UnsupportedOperationException if the target has no server stream
     */
    public LoadResult run(int warmupSeconds, int seconds, PrintStream out) throws Exception {
        List<AutoCloseable> open = new ArrayList<>();
        try {
            for (int i = 0; i < streams; i++) {
                open.add(opener.open(new Counter()));
            }
            TimeUnit.SECONDS.sleep(warmupSeconds);
            latencies.reset();
            measuring = true;
            long start = System.nanoTime();
            TimeUnit.SECONDS.sleep(seconds);
            measuring = false;
            long count = received.sum();
            double elapsed = (System.nanoTime() - start) / 1e9;
            Histogram histogram = latencies.getIntervalHistogram();
            out.printf("Streams: %d open, %d failed%n", streams, failures.get());
            Throwable first = firstFailure.get();
            return new LoadResult(count, elapsed, micros(histogram.getValueAtPercentile(50)),
                    micros(histogram.getValueAtPercentile(99)), micros(histogram.getValueAtPercentile(99.9)),
                    micros(histogram.getMaxValue()), failures.get(), LoadResult.describe(first));
        } finally {
            stopped = true;
            for (AutoCloseable stream : open) {
                stream.close();
            }
        }
    }

    private static long micros(long nanos) {
        return nanos / 1000;
    }

    /** Counts one stream's messages. */
    private final class Counter implements StreamListener {

        @Override
        public void onMessage(long sentNanos) {
            if (measuring) {
                received.increment();
                if (sentNanos != 0) {
                    latencies.recordValue(Math.max(0, System.nanoTime() - sentNanos));
                }
            }
        }

        @Override
        public void onEnd(Throwable error) {
            if (!stopped) {
                failures.incrementAndGet();
                firstFailure.compareAndSet(null, error != null ? error
                        : new IllegalStateException("the server completed a stream before the load ended"));
            }
        }
    }
}
