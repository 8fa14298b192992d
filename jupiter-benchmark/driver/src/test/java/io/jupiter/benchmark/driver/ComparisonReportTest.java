package io.jupiter.benchmark.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonReportTest {

    private final TargetSpec raw = TargetSpec.named(TargetSpec.RAW, "cp", null);
    private final TargetSpec ours = TargetSpec.named(TargetSpec.JUPITER, "cp", null);
    private final TargetSpec legacy = TargetSpec.named(TargetSpec.LEGACY, null, "legacy-cp");
    private final LoadCase sync = LoadCase.parse("sync 32 small");
    private final LoadCase users = LoadCase.parse("sync 32 getUser");

    @Test
    void ratiosComeFromTheSameRunAndFromTheMeans() {
        ComparisonReport report = new ComparisonReport(List.of(sync), List.of(raw, ours, legacy), 2);
        report.add(0, sync, raw, result(200_000));
        report.add(0, sync, ours, result(100_000));
        report.add(0, sync, legacy, result(80_000));
        report.add(1, sync, raw, result(100_000));
        report.add(1, sync, ours, result(90_000));
        report.add(1, sync, legacy, result(100_000));

        String markdown = report.toMarkdown();
        assertThat(markdown).contains("| case | raw echo | jupiter (defaults) | 1.3.1 fastest |");
        assertThat(markdown).contains("| sync 32 small | 150,000 [200,000 · 100,000] | 95,000 [100,000 · 90,000] "
                + "| 90,000 [80,000 · 100,000] |");
        // Each run's ratio, then the ratio of the means: ours / raw 0.50 and 0.90; ours / 1.3.1 1.25 and 0.90.
        assertThat(markdown).contains("| jupiter (defaults) / raw echo | jupiter (defaults) / 1.3.1 fastest |");
        assertThat(markdown).contains("| sync 32 small | 0.50, 0.90 → **0.63** | 1.25, 0.90 → **1.06** |");
        assertThat(markdown).contains("| sync 32 small | 10 / 300 | 10 / 300 | 10 / 300 |");
    }

    @Test
    void unsupportedCasesAndFailuresAreShown() {
        ComparisonReport report = new ComparisonReport(List.of(users), List.of(ours, legacy), 1);
        report.add(0, users, ours, new LoadResult(50_000, 10, 100, 900, 1000, 2000, 4, "boom"));
        report.unsupported(users, legacy, "hello only");

        String markdown = report.toMarkdown();
        assertThat(markdown).contains("| sync 32 getUser | 5,000 [5,000] (4 failed calls) | n/a |");
        assertThat(markdown).contains("| sync 32 getUser | – |");
    }

    private static LoadResult result(long qps) {
        return new LoadResult(qps * 10, 10, 10, 300, 500, 1000, 0, null);
    }
}
