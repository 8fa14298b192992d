package io.jupiter.monitor;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Metered;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.rpc.metrics.RpcMetrics;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The metrics as one JSON object, for tools:
 * <pre>{@code
 * {"time":1700000000000,"sides":[{"side":"provider","enabled":true,
 *   "histograms":{"request.size":{"description":"...","count":3,"min":..,"max":..,"mean":..,"stddev":..,
 *                                 "p50":..,"p75":..,"p95":..,"p98":..,"p99":..,"p999":..}},
 *   "meters":{"rejection":{"description":"...","count":0,"mean_rate":..,"m1_rate":..,"m5_rate":..,"m15_rate":..}},
 *   "timers":{"processing":{ meter fields and histogram fields, durations in milliseconds }}}]}
 * }</pre>
 */
public final class JsonReport {

    private static final double NANOS_PER_MILLI = 1_000_000d;

    private JsonReport() {
    }

    public static String render(List<RpcMetrics> sides) {
        StringBuilder out = new StringBuilder(4096);
        out.append("{\"time\":").append(System.currentTimeMillis()).append(",\"sides\":[");
        boolean firstSide = true;
        for (RpcMetrics m : sides) {
            if (!firstSide) {
                out.append(',');
            }
            firstSide = false;
            out.append("{\"side\":\"").append(m.side().id()).append("\",\"enabled\":").append(m.enabled());
            if (m.enabled()) {
                out.append(",\"histograms\":{");
                boolean first = true;
                for (Map.Entry<String, Histogram> e : m.registry().getHistograms().entrySet()) {
                    first = open(out, m, e.getKey(), first);
                    out.append(",\"count\":").append(e.getValue().getCount());
                    snapshot(out, e.getValue().getSnapshot(), 1d);
                    out.append('}');
                }
                out.append("},\"meters\":{");
                first = true;
                for (Map.Entry<String, Meter> e : m.registry().getMeters().entrySet()) {
                    first = open(out, m, e.getKey(), first);
                    metered(out, e.getValue());
                    out.append('}');
                }
                out.append("},\"timers\":{");
                first = true;
                for (Map.Entry<String, Timer> e : m.registry().getTimers().entrySet()) {
                    first = open(out, m, e.getKey(), first);
                    metered(out, e.getValue());
                    snapshot(out, e.getValue().getSnapshot(), NANOS_PER_MILLI);
                    out.append(",\"duration_unit\":\"milliseconds\"}");
                }
                out.append('}');
            }
            out.append('}');
        }
        return out.append("]}").toString();
    }

    private static boolean open(StringBuilder out, RpcMetrics m, String name, boolean first) {
        if (!first) {
            out.append(',');
        }
        string(out, name);
        out.append(":{\"description\":");
        string(out, MetricNames.describe(m.side(), name));
        return false;
    }

    private static void metered(StringBuilder out, Metered meter) {
        out.append(",\"count\":").append(meter.getCount())
                .append(",\"mean_rate\":").append(number(meter.getMeanRate()))
                .append(",\"m1_rate\":").append(number(meter.getOneMinuteRate()))
                .append(",\"m5_rate\":").append(number(meter.getFiveMinuteRate()))
                .append(",\"m15_rate\":").append(number(meter.getFifteenMinuteRate()));
    }

    private static void snapshot(StringBuilder out, Snapshot s, double divisor) {
        out.append(",\"min\":").append(number(s.getMin() / divisor))
                .append(",\"max\":").append(number(s.getMax() / divisor))
                .append(",\"mean\":").append(number(s.getMean() / divisor))
                .append(",\"stddev\":").append(number(s.getStdDev() / divisor))
                .append(",\"p50\":").append(number(s.getMedian() / divisor))
                .append(",\"p75\":").append(number(s.get75thPercentile() / divisor))
                .append(",\"p95\":").append(number(s.get95thPercentile() / divisor))
                .append(",\"p98\":").append(number(s.get98thPercentile() / divisor))
                .append(",\"p99\":").append(number(s.get99thPercentile() / divisor))
                .append(",\"p999\":").append(number(s.get999thPercentile() / divisor));
    }

    private static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.6f", value) : "null";
    }

    private static void string(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
