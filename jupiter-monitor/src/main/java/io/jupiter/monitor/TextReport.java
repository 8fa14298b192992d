package io.jupiter.monitor;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Metered;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.rpc.metrics.RpcMetrics;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;

/**
 * The text report of {@code metrics -report}, in the original's layout (Dropwizard's console reporter, with each
 * metric's description in brackets): per side a dated banner, then {@code -- Histograms}, {@code -- Meters} and
 * {@code -- Timers} sections. Durations are in milliseconds, rates per second.
 */
public final class TextReport {

    private static final int WIDTH = 80;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);
    private static final double NANOS_PER_MILLI = 1_000_000d;

    private TextReport() {
    }

    /** The report of every side in {@code sides}, lines ending with {@code newline}. */
    public static String render(List<RpcMetrics> sides, String newline) {
        StringBuilder out = new StringBuilder(4096);
        String now = LocalDateTime.now().format(TIME);
        if (sides.isEmpty()) {
            out.append("no metrics: nothing is attached").append(newline);
        }
        for (RpcMetrics metrics : sides) {
            banner(out, now + ' ' + metrics.side().id() + ' ', '=', newline);
            out.append(newline);
            if (!metrics.enabled()) {
                out.append("(metrics disabled)").append(newline).append(newline);
                continue;
            }
            SortedMap<String, Histogram> histograms = metrics.registry().getHistograms();
            SortedMap<String, Meter> meters = metrics.registry().getMeters();
            SortedMap<String, Timer> timers = metrics.registry().getTimers();
            if (!histograms.isEmpty()) {
                banner(out, "-- Histograms ", '-', newline);
                for (Map.Entry<String, Histogram> e : histograms.entrySet()) {
                    name(out, metrics, e.getKey(), newline);
                    histogram(out, e.getValue(), newline);
                }
                out.append(newline);
            }
            if (!meters.isEmpty()) {
                banner(out, "-- Meters ", '-', newline);
                for (Map.Entry<String, Meter> e : meters.entrySet()) {
                    name(out, metrics, e.getKey(), newline);
                    meter(out, e.getValue(), "events", newline);
                }
                out.append(newline);
            }
            if (!timers.isEmpty()) {
                banner(out, "-- Timers ", '-', newline);
                for (Map.Entry<String, Timer> e : timers.entrySet()) {
                    name(out, metrics, e.getKey(), newline);
                    timer(out, e.getValue(), newline);
                }
                out.append(newline);
            }
        }
        return out.toString();
    }

    private static void banner(StringBuilder out, String title, char fill, String newline) {
        out.append(title);
        for (int i = title.length(); i < WIDTH; i++) {
            out.append(fill);
        }
        out.append(newline);
    }

    private static void name(StringBuilder out, RpcMetrics metrics, String name, String newline) {
        out.append(name).append(" [").append(MetricNames.describe(metrics.side(), name)).append(']').append(newline);
    }

    private static void histogram(StringBuilder out, Histogram histogram, String newline) {
        line(out, "count", Long.toString(histogram.getCount()), newline);
        Snapshot s = histogram.getSnapshot();
        line(out, "min", Long.toString(s.getMin()), newline);
        line(out, "max", Long.toString(s.getMax()), newline);
        line(out, "mean", fixed(s.getMean()), newline);
        line(out, "stddev", fixed(s.getStdDev()), newline);
        line(out, "median", fixed(s.getMedian()), newline);
        percentiles(out, s, 1d, "", newline);
    }

    private static void meter(StringBuilder out, Metered meter, String unit, String newline) {
        line(out, "count", Long.toString(meter.getCount()), newline);
        line(out, "mean rate", fixed(meter.getMeanRate()) + ' ' + unit + "/second", newline);
        line(out, "1-minute rate", fixed(meter.getOneMinuteRate()) + ' ' + unit + "/second", newline);
        line(out, "5-minute rate", fixed(meter.getFiveMinuteRate()) + ' ' + unit + "/second", newline);
        line(out, "15-minute rate", fixed(meter.getFifteenMinuteRate()) + ' ' + unit + "/second", newline);
    }

    private static void timer(StringBuilder out, Timer timer, String newline) {
        meter(out, timer, "calls", newline);
        Snapshot s = timer.getSnapshot();
        String ms = " milliseconds";
        line(out, "min", fixed(s.getMin() / NANOS_PER_MILLI) + ms, newline);
        line(out, "max", fixed(s.getMax() / NANOS_PER_MILLI) + ms, newline);
        line(out, "mean", fixed(s.getMean() / NANOS_PER_MILLI) + ms, newline);
        line(out, "stddev", fixed(s.getStdDev() / NANOS_PER_MILLI) + ms, newline);
        line(out, "median", fixed(s.getMedian() / NANOS_PER_MILLI) + ms, newline);
        percentiles(out, s, NANOS_PER_MILLI, ms, newline);
    }

    private static void percentiles(StringBuilder out, Snapshot s, double divisor, String unit, String newline) {
        percentile(out, "75%", s.get75thPercentile() / divisor, unit, newline);
        percentile(out, "95%", s.get95thPercentile() / divisor, unit, newline);
        percentile(out, "98%", s.get98thPercentile() / divisor, unit, newline);
        percentile(out, "99%", s.get99thPercentile() / divisor, unit, newline);
        percentile(out, "99.9%", s.get999thPercentile() / divisor, unit, newline);
    }

    private static void line(StringBuilder out, String label, String value, String newline) {
        out.append(String.format(Locale.ROOT, "%18s = %s", label, value)).append(newline);
    }

    private static void percentile(StringBuilder out, String label, double value, String unit, String newline) {
        out.append(String.format(Locale.ROOT, "%17s <= %s%s", label, fixed(value), unit)).append(newline);
    }

    private static String fixed(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
