package io.jupiter.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.benchmark.driver.Compare;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load driver's 1.3.1 adapter ({@code jupiter-benchmark/driver/src/legacy}) compiled against the real 1.3.1
 * jars as {@code bench/build-legacy.sh} compiles it, and compared with our defaults and the raw echo by
 * {@link Compare}, each side in a JVM of its own on 127.0.0.1, one second a measurement, on ports the OS chose
 * (the 1.3.1 server cannot report a bound port 0).
 */
class LegacyTargetTest {

    @Test
    void theDriverLoads131AtItsFastestBesideOurs(@TempDir Path dir) throws Exception {
        String driver = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.contains("jupiter-benchmark") || entry.contains("HdrHistogram"))
                .collect(Collectors.joining(File.pathSeparator));
        String legacy = LegacyJvm.legacyClassPath();
        Path classes = Files.createDirectories(dir.resolve("classes"));
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, errors, errors, "--release", "17", "-nowarn",
                "-d", classes.toString(), "-cp", legacy + File.pathSeparator + driver,
                System.getProperty("compat.legacy.target.source"));
        assertThat(rc).as("javac: %s", errors).isZero();

        String report = Compare.fromFlags("--jupiter-classpath", System.getProperty("java.class.path"),
                "--legacy-classpath", String.join(File.pathSeparator, classes.toString(), driver, legacy),
                "--targets", "raw,jupiter,legacy", "--cases", "sync 4 small,async 1 1k,sync 1 getUser",
                "--runs", "1", "--warmup", "2", "--seconds", "1",
                "--base-port", Integer.toString(LegacyJvm.freeConsecutivePorts(3)),
                "--logs", dir.resolve("logs").toString()).run();

        assertThat(report).contains("| case | raw echo | jupiter (defaults) | 1.3.1 fastest |",
                "| jupiter (defaults) / raw echo | jupiter (defaults) / 1.3.1 fastest |");
        List<String> measured = report.lines()
                .filter(line -> line.startsWith("| sync 4 small") || line.startsWith("| async 1 1k")).toList();
        assertThat(measured).hasSize(6).allMatch(line -> !line.contains("–") && !line.contains("failed"));
        // 1.3.1 serves only the original benchmark's hello, so the user scenario is not applicable to it.
        assertThat(report).containsPattern("\\| sync 1 getUser \\| n/a \\| [0-9,]+ \\[[0-9,]+\\] \\| n/a \\|");
    }
}
