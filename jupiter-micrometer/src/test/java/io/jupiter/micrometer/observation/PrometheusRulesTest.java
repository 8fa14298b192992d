package io.jupiter.micrometer.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The alerting rules in docs/observability/ pass {@code promtool check rules} (Debian's {@code prometheus} package;
 * .ci/run installs it). Skipped, saying so, only when promtool is not on the machine.
 */
class PrometheusRulesTest {

    @Test
    void promtoolAcceptsTheAlertingRules() throws IOException, InterruptedException {
        Path promtool = promtool();
        assumeTrue(promtool != null, "promtool is not installed (Debian package prometheus; .ci/run installs it): "
                + "the alerting rules were not checked");
        Path rules = DashboardMetricsTest.DOCS.resolve("jupiter-alerts.yml");
        Process process = new ProcessBuilder(promtool.toString(), "check", "rules", rules.toString())
                .redirectErrorStream(true).start();
        boolean exited = process.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(exited).as("promtool finished within 60 s").isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains("SUCCESS: 7 rules found");
    }

    private static Path promtool() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "promtool");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
