package io.jupiter.example.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.benchmark.driver.Compare;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load driver's comparison end to end, as {@code bench/compare.sh} runs it: our two targets and the raw echo,
 * each server and client in a JVM of its own (on this test's class path), on 127.0.0.1, one second each after
 * two of warm-up.
 */
class CompareTest {

    @Test
    void comparesEveryTargetInChildJvmsAndReportsRatios(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("report.md");
        Compare compare = Compare.fromFlags("--jupiter-classpath", System.getProperty("java.class.path"),
                "--targets", "raw,jupiter,jupiter-direct", "--cases", "sync 2 small,async 1 getUser",
                // A warm-up, so that a JVM starting slowly on a busy machine still has calls in the measured second.
                "--runs", "1", "--warmup", "2", "--seconds", "1", "--base-port", "18290",
                "--logs", dir.resolve("logs").toString(), "--out", out.toString());

        String report = compare.run();

        assertThat(report).contains("| case | raw echo | jupiter (defaults) | jupiter (IO threads) |",
                "| jupiter (defaults) / raw echo | jupiter (IO threads) / raw echo |");
        // Every cell measured something and no call failed; the raw echo has no user service.
        assertThat(report.lines().filter(line -> line.startsWith("| sync 2 small")))
                .hasSize(3).allMatch(line -> !line.contains("–") && !line.contains("failed"));
        assertThat(report).containsPattern("\\| async 1 getUser \\| n/a \\| [0-9,]+ \\[[0-9,]+\\] \\| [0-9,]+ ");
        assertThat(report).containsPattern("\\| sync 2 small \\| \\d\\.\\d\\d → \\*\\*\\d\\.\\d\\d\\*\\* \\|");
        assertThat(report).contains("2 connections, 2 IO threads per side, protostuff",
                "JVM options of every server and client: -Xms1g -Xmx1g -XX:+AlwaysPreTouch.");
        assertThat(Files.readString(out)).isEqualTo(report);
        // One server and one client log per measurement.
        try (var logs = Files.list(dir.resolve("logs"))) {
            assertThat(logs.count()).isEqualTo(2 * 2 * 3);
        }
    }
}
