package io.jupiter.benchmark.driver;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The results of a comparison, one per run, case and target, rendered as Markdown: throughput (mean of the runs and
 * each run), latency, and the ratio of every target to each reference target within the same run.
 */
final class ComparisonReport {

    private final List<LoadCase> cases;
    private final List<TargetSpec> targets;
    private final int runs;
    /** Key: case index, target index; value: one entry per run, null where the target could not run the case. */
    private final Map<List<Integer>, LoadResult[]> results = new HashMap<>();
    private final Map<List<Integer>, String> unsupported = new HashMap<>();

    ComparisonReport(List<LoadCase> cases, List<TargetSpec> targets, int runs) {
        this.cases = List.copyOf(cases);
        this.targets = List.copyOf(targets);
        this.runs = runs;
    }

    void add(int run, LoadCase loadCase, TargetSpec target, LoadResult result) {
        results.computeIfAbsent(key(loadCase, target), k -> new LoadResult[runs])[run] = result;
    }

    void unsupported(LoadCase loadCase, TargetSpec target, String why) {
        unsupported.put(key(loadCase, target), why);
    }

    /** The three tables, each with a heading line. */
    String toMarkdown() {
        StringBuilder out = new StringBuilder();
        out.append("Calls per second (stream cases: messages per second; upload: messages the client streams sent; "
                + "echo: messages echoed back), "
                + "mean of ").append(runs).append(" run(s) (each run in brackets):\n\n");
        table(out, "case", labels(), (c, t) -> throughput(c, t));
        out.append("\nLatency in µs, p50 / p99 (mean of the runs; stream cases: from the server's send time to "
                + "arrival; echo: the round trip):\n\n");
        table(out, "case", labels(), (c, t) -> latency(c, t));
        List<int[]> pairs = ratioPairs();
        if (!pairs.isEmpty()) {
            List<String> headings = new ArrayList<>();
            for (int[] pair : pairs) {
                headings.add(targets.get(pair[0]).label() + " / " + targets.get(pair[1]).label());
            }
            out.append("\nRatios within each run (run 1, run 2, ...), then the ratio of the means:\n\n");
            table(out, "case", headings, (c, p) -> ratios(c, pairs.get(p)));
        }
        return out.toString();
    }

    private interface Cell {
        String text(int caseIndex, int column);
    }

    private void table(StringBuilder out, String first, List<String> headings, Cell cell) {
        out.append("| ").append(first).append(" | ").append(String.join(" | ", headings)).append(" |\n");
        out.append("|---").append("|---:".repeat(headings.size())).append("|\n");
        for (int c = 0; c < cases.size(); c++) {
            out.append("| ").append(cases.get(c));
            for (int column = 0; column < headings.size(); column++) {
                out.append(" | ").append(cell.text(c, column));
            }
            out.append(" |\n");
        }
    }

    private List<String> labels() {
        return targets.stream().map(TargetSpec::label).toList();
    }

    /** Every non-reference target against every reference target. */
    private List<int[]> ratioPairs() {
        List<int[]> pairs = new ArrayList<>();
        for (int s = 0; s < targets.size(); s++) {
            for (int r = 0; r < targets.size(); r++) {
                if (!targets.get(s).reference() && targets.get(r).reference()) {
                    pairs.add(new int[] {s, r});
                }
            }
        }
        return pairs;
    }

    private String throughput(int c, int t) {
        LoadResult[] row = row(c, t);
        if (row == null) {
            return notRun(c, t);
        }
        List<String> each = new ArrayList<>();
        for (LoadResult result : row) {
            each.add(result == null ? "–" : String.format(Locale.ROOT, "%,d", result.qps()));
        }
        return String.format(Locale.ROOT, "%,d", Math.round(mean(row, LoadResult::qps))) + " ["
                + String.join(" · ", each) + "]" + failures(row);
    }

    private String latency(int c, int t) {
        LoadResult[] row = row(c, t);
        if (row == null) {
            return notRun(c, t);
        }
        if (cases.get(c).mode().equals("upload")) {
            return "–"; // a client stream's driver records no latency
        }
        return Math.round(mean(row, LoadResult::p50Micros)) + " / " + Math.round(mean(row, LoadResult::p99Micros));
    }

    private String ratios(int c, int[] pair) {
        LoadResult[] subject = row(c, pair[0]);
        LoadResult[] reference = row(c, pair[1]);
        if (subject == null || reference == null) {
            return "–";
        }
        List<String> each = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            each.add(ratio(subject[run] == null ? 0 : subject[run].qps(),
                    reference[run] == null ? 0 : reference[run].qps()));
        }
        double meanSubject = mean(subject, LoadResult::qps);
        double meanReference = mean(reference, LoadResult::qps);
        return String.join(", ", each) + " → **" + ratio(meanSubject, meanReference) + "**";
    }

    private LoadResult[] row(int c, int t) {
        return results.get(List.of(c, t));
    }

    private String notRun(int c, int t) {
        String why = unsupported.get(List.of(c, t));
        return why != null ? "n/a" : "–";
    }

    private static String failures(LoadResult[] row) {
        long failed = 0;
        for (LoadResult result : row) {
            failed += result == null ? 0 : result.failures();
        }
        return failed == 0 ? "" : " (" + failed + " failed calls)";
    }

    private static double mean(LoadResult[] row, ToLongFunction<LoadResult> value) {
        double sum = 0;
        int n = 0;
        for (LoadResult result : row) {
            if (result != null) {
                sum += value.applyAsLong(result);
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    private static String ratio(double subject, double reference) {
        return subject > 0 && reference > 0 ? String.format(Locale.ROOT, "%.2f", subject / reference) : "–";
    }

    private List<Integer> key(LoadCase loadCase, TargetSpec target) {
        return List.of(cases.indexOf(loadCase), targets.indexOf(target));
    }
}
