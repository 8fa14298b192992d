package io.jupiter.benchmark.driver;

import java.io.PrintStream;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one measured period gave. {@link #print} writes the report lines every benchmark client of this project
 * prints (the first is the original benchmark's), and {@link #parse} reads them back.
 *
 * @param count        calls completed in the measured period
 * @param seconds      length of the measured period
 * @param p50Micros    median latency
 * @param p99Micros    99th percentile latency
 * @param p999Micros   99.9th percentile latency
 * @param maxMicros    highest latency
 * @param failures     failed calls, warm-up included
 * @param firstFailure the first failure, or {@code null}
 */
public record LoadResult(long count, double seconds, long p50Micros, long p99Micros, long p999Micros, long maxMicros,
                         long failures, String firstFailure) {

    private static final Pattern COUNT = Pattern.compile("^Request count: (\\d+), time: (\\d+) second, qps: (\\d+)");
    private static final Pattern LATENCY =
            Pattern.compile("^Latency \\(us\\): p50=(\\d+), p99=(\\d+), p999=(\\d+), max=(\\d+)");
    private static final Pattern FAILED = Pattern.compile("^Failed calls: (\\d+), first: (.*)");

    /** Calls per second, rounded. */
    public long qps() {
        return seconds > 0 ? Math.round(count / seconds) : 0;
    }

    /** Prints {@code Request count: N, time: S second, qps: Q}, the latency line and, if any, the failures. */
    public void print(PrintStream out) {
        out.printf("Request count: %d, time: %d second, qps: %d%n", count, Math.round(seconds), qps());
        out.printf("Latency (us): p50=%d, p99=%d, p999=%d, max=%d%n", p50Micros, p99Micros, p999Micros, maxMicros);
        if (failures > 0) {
            out.println("Failed calls: " + failures + ", first: " + firstFailure);
        }
        out.flush();
    }

    /**
     * Reads the lines {@link #print} wrote, among others. The period's length is the printed whole seconds, so
     * {@link #qps()} of the result is the printed qps within rounding.
     *
     * @throws IllegalArgumentException if the count or latency line is missing
     */
    public static LoadResult parse(List<String> lines) {
        Matcher count = null;
        Matcher latency = null;
        Matcher failed = null;
        for (String line : lines) {
            Matcher m;
            if ((m = COUNT.matcher(line)).find()) {
                count = m;
            } else if ((m = LATENCY.matcher(line)).find()) {
                latency = m;
            } else if ((m = FAILED.matcher(line)).find()) {
                failed = m;
            }
        }
        if (count == null || latency == null) {
            throw new IllegalArgumentException("no report in the client's output (" + lines.size() + " lines)");
        }
        long calls = Long.parseLong(count.group(1));
        long qps = Long.parseLong(count.group(3));
        // The printed seconds are rounded; the printed qps is exact, so the period is derived from it.
        double seconds = qps > 0 ? (double) calls / qps : Long.parseLong(count.group(2));
        return new LoadResult(calls, seconds, Long.parseLong(latency.group(1)), Long.parseLong(latency.group(2)),
                Long.parseLong(latency.group(3)), Long.parseLong(latency.group(4)),
                failed == null ? 0 : Long.parseLong(failed.group(1)), failed == null ? null : failed.group(2));
    }

    /**
     * {@code failure} and its causes on one line ({@code null} for none), so that a wrapped transport error
     * ({@code INTERNAL: http2 exception}, say) shows what it wraps.
     */
    static String describe(Throwable failure) {
        if (failure == null) {
            return null;
        }
        StringBuilder text = new StringBuilder(failure.toString());
        Throwable cause = failure.getCause();
        for (int i = 0; i < 5 && cause != null && cause != failure; i++, cause = cause.getCause()) {
            text.append("; caused by: ").append(cause);
        }
        return text.toString();
    }
}
