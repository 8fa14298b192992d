package io.jupiter.benchmark.overload;

import io.jupiter.rpc.exception.FlowControlException;
import io.jupiter.rpc.exception.ServerBusyException;
import io.jupiter.rpc.exception.ThrottledException;
import io.jupiter.rpc.exception.TimeoutException;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * What the callers of an open-loop run saw, by the second each call was offered: offered, succeeded (goodput, with
 * the latency of each success), shed by a provider (busy, flow control), throttled here before being sent, timed
 * out, failed otherwise.
 */
final class Outcomes {

    private static final long MAX_MICROS = TimeUnit.SECONDS.toMicros(60);

    final PerSecond offered;
    final PerSecond goodput;
    final PerSecond shed;
    final PerSecond throttled;
    final PerSecond timedOut;
    final PerSecond failed;
    private final Histogram[] latency;

    Outcomes(int seconds) {
        offered = new PerSecond(seconds);
        goodput = new PerSecond(seconds);
        shed = new PerSecond(seconds);
        throttled = new PerSecond(seconds);
        timedOut = new PerSecond(seconds);
        failed = new PerSecond(seconds);
        latency = new Histogram[seconds];
        for (int i = 0; i < seconds; i++) {
            latency[i] = new ConcurrentHistogram(MAX_MICROS, 2);
        }
    }

    void start(long nanos) {
        for (PerSecond counter : new PerSecond[] {offered, goodput, shed, throttled, timedOut, failed}) {
            counter.start(nanos);
        }
    }

    /** A call offered at {@code offeredNanos} ended at {@code endNanos} with {@code error} (null: it succeeded). */
    void ended(long offeredNanos, long endNanos, Throwable error) {
        if (error == null) {
            goodput.add(offeredNanos);
            int second = goodput.secondOf(offeredNanos);
            if (second >= 0) {
                latency[second].recordValue(Math.min(MAX_MICROS,
                        Math.max(0, TimeUnit.NANOSECONDS.toMicros(endNanos - offeredNanos))));
            }
        } else if (error instanceof ThrottledException) {
            throttled.add(offeredNanos);
        } else if (error instanceof ServerBusyException || error instanceof FlowControlException) {
            shed.add(offeredNanos);
        } else if (error instanceof TimeoutException) {
            timedOut.add(offeredNanos);
        } else {
            failed.add(offeredNanos);
        }
    }

    /** The 99th percentile of the successes offered in {@code second}, in ms; -1 if none. */
    double p99Millis(int second) {
        Histogram h = latency[second];
        return h.getTotalCount() == 0 ? -1 : h.getValueAtPercentile(99) / 1000.0;
    }

    /** The 99th percentile of the successes offered in seconds {@code from} to {@code to} (excluded), in ms. */
    double p99Millis(int from, int to) {
        Histogram all = new Histogram(MAX_MICROS, 2);
        for (int i = from; i < to; i++) {
            all.add(latency[i]);
        }
        return all.getTotalCount() == 0 ? -1 : all.getValueAtPercentile(99) / 1000.0;
    }
}
