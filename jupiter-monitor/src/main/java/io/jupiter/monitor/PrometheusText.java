package io.jupiter.monitor;

import com.codahale.metrics.Counting;
import com.codahale.metrics.Sampling;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.jupiter.rpc.metrics.MetricNames;
import io.jupiter.rpc.metrics.RpcMetrics;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The metrics in the Prometheus text exposition format (version 0.0.4). Every sample has a {@code side} label
 * ({@code provider} or {@code consumer}); method timers also have {@code service} ({@code group/name/version}
 * as in the timer's name) and {@code method}. Sizes are summaries in bytes, times summaries in seconds (quantiles
 * from Dropwizard's decaying reservoir, plus {@code _count}), rejections a counter.
 */
public final class PrometheusText {

    /** The content type of this format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final double[] QUANTILES = {0.5, 0.75, 0.95, 0.98, 0.99, 0.999};
    private static final double NANOS_PER_SECOND = 1e9;

    private PrometheusText() {
    }

    public static String render(List<RpcMetrics> sides) {
        StringBuilder out = new StringBuilder(4096);
        summaryFamily(out, sides, "jupiter_request_size_bytes", MetricNames.REQUEST_SIZE,
                "request body size in bytes, without the 16-byte header", 1d);
        summaryFamily(out, sides, "jupiter_response_size_bytes", MetricNames.RESPONSE_SIZE,
                "response body size in bytes, without the 16-byte header", 1d);

        out.append("# HELP jupiter_rejection_total requests refused (bad request, service not found, busy, "
                + "flow control)\n# TYPE jupiter_rejection_total counter\n");
        for (RpcMetrics m : sides) {
            if (m.enabled()) {
                out.append("jupiter_rejection_total{side=\"").append(m.side().id()).append("\"} ")
                        .append(m.registry().meter(MetricNames.REJECTION).getCount()).append('\n');
            }
        }

        summaryFamily(out, sides, "jupiter_processing_seconds", MetricNames.PROCESSING,
                "provider time from a request decoded to its response handed to the connection", NANOS_PER_SECOND);

        out.append("# HELP jupiter_method_seconds provider method execution time; consumer call time\n"
                + "# TYPE jupiter_method_seconds summary\n");
        for (RpcMetrics m : sides) {
            if (!m.enabled()) {
                continue;
            }
            for (Map.Entry<String, Timer> e : m.registry().getTimers().entrySet()) {
                if (MetricNames.isMethod(e.getKey())) {
                    String name = e.getKey();
                    int hash = name.lastIndexOf('#');
                    String labels = "side=\"" + m.side().id() + "\",service=\"" + escape(name.substring(0, hash))
                            + "\",method=\"" + escape(name.substring(hash + 1)) + '"';
                    samples(out, "jupiter_method_seconds", labels, e.getValue(), NANOS_PER_SECOND);
                }
            }
        }
        return out.toString();
    }

    private static void summaryFamily(StringBuilder out, List<RpcMetrics> sides, String family, String metric,
                                      String help, double divisor) {
        out.append("# HELP ").append(family).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(family).append(" summary\n");
        for (RpcMetrics m : sides) {
            if (!m.enabled()) {
                continue;
            }
            Object found = metric.equals(MetricNames.PROCESSING) ? m.registry().getTimers().get(metric)
                    : m.registry().getHistograms().get(metric);
            if (found != null) {
                samples(out, family, "side=\"" + m.side().id() + '"', (Sampling & Counting)
                        found, divisor);
            }
        }
    }

    private static <T extends Sampling & Counting> void samples(StringBuilder out,
            String family, String labels, T metric, double divisor) {
        Snapshot s = metric.getSnapshot();
        for (double q : QUANTILES) {
            out.append(family).append('{').append(labels).append(",quantile=\"").append(q).append("\"} ")
                    .append(number(s.getValue(q) / divisor)).append('\n');
        }
        out.append(family).append("_count{").append(labels).append("} ").append(metric.getCount()).append('\n');
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.9g", value);
    }

    /** Escapes a label value: backslash, double quote and newline. */
    static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
