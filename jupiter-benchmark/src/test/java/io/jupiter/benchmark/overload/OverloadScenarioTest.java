package io.jupiter.benchmark.overload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A small run of each scenario against real servers on 127.0.0.1 (a few seconds each), asserting what the scenario
 * measures: every offered call is accounted for, the provider's executions cover the successes, and a provider
 * failing most calls loses most of its share while few calls fail.
 */
class OverloadScenarioTest {

    @Test
    void anOpenLoopRunAccountsForEveryOfferedCall() throws Exception {
        OverloadScenario.Options options = OverloadScenario.Options.parse(new String[] {
            "--work-millis", "20", "--timeout-millis", "500", "--capacity-callers", "16", "--capacity-seconds", "1",
            "--schedule", "3x:2s,0.5x:2s", "--drain-seconds", "30"});
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        OverloadScenario.Report report;
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            report = OverloadScenario.run(options, out);
        }

        assertThat(report.capacity()).isPositive();
        long offered = report.offered(0, 4);
        // Offered at the schedule's rates, whatever the answers: 3 x C for 2 s, then C / 2 for 2 s.
        assertThat(offered).isEqualTo(Math.round(Math.max(1, 3 * report.capacity()) * 2)
                + Math.round(Math.max(1, 0.5 * report.capacity()) * 2));
        assertThat(report.ended(0, 4)).as("calls that ended, one way or another").isEqualTo(offered);
        assertThat(report.goodput(0, 4)).isPositive();
        assertThat(report.executed(0, 4)).isGreaterThanOrEqualTo(report.goodput(0, 4));
        assertThat(report.forNobody(0, 4)).isLessThanOrEqualTo(report.executed(0, 4));
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("| s | offered/s | goodput |", "| 3x | 0-1 |");
    }

    @Test
    void aSickProviderLosesItsShareAndFewCallsFail() throws Exception {
        SickProviderScenario.Options options = SickProviderScenario.Options.parse(new String[] {
            "--threads", "4", "--healthy", "2", "--sick", "5", "--healed", "1"});
        SickProviderScenario.Report report;
        try (PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
            report = SickProviderScenario.run(options, out);
        }

        assertThat(report.calls(0, 2)).isPositive();
        // Once ejected, a runs only what reaches it before then: well below the half it had.
        assertThat(report.sickShare(4, 7)).as("a's share in the last 3 s of its sickness").isLessThan(0.25);
        long calls = report.calls(2, 7);
        assertThat(report.failed(2, 7)).as("failed of %d calls", calls).isLessThanOrEqualTo(Math.max(5, calls / 50));
    }
}
