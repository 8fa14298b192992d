package io.jupiter.benchmark.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadResultTest {

    @Test
    void printedLinesReadBack() {
        LoadResult result = new LoadResult(1_234_567, 10.02, 87, 310, 1200, 9000, 0, null);
        List<String> lines = printed(result);
        assertThat(lines).containsExactly("Request count: 1234567, time: 10 second, qps: 123210",
                "Latency (us): p50=87, p99=310, p999=1200, max=9000");

        LoadResult read = LoadResult.parse(lines);
        assertThat(read.count()).isEqualTo(1_234_567);
        assertThat(read.qps()).isEqualTo(result.qps());
        assertThat(read.p50Micros()).isEqualTo(87);
        assertThat(read.p99Micros()).isEqualTo(310);
        assertThat(read.failures()).isZero();
    }

    @Test
    void aFailureIsDescribedWithWhatItWraps() {
        Exception wrapped = new IllegalStateException("INTERNAL: http2 exception",
                new IOException("FLOW_CONTROL_ERROR", new RuntimeException("window overflow")));
        assertThat(LoadResult.describe(wrapped)).isEqualTo("java.lang.IllegalStateException: INTERNAL: http2 exception"
                + "; caused by: java.io.IOException: FLOW_CONTROL_ERROR"
                + "; caused by: java.lang.RuntimeException: window overflow");
        assertThat(LoadResult.describe(null)).isNull();
    }

    @Test
    void failuresAreReportedAndReadBack() {
        LoadResult result = new LoadResult(10, 1, 1, 2, 3, 4, 3, "java.io.IOException: reset");
        List<String> lines = new ArrayList<>(List.of("a header line"));
        lines.addAll(printed(result));
        assertThat(lines).contains("Failed calls: 3, first: java.io.IOException: reset");
        LoadResult read = LoadResult.parse(lines);
        assertThat(read.failures()).isEqualTo(3);
        assertThat(read.firstFailure()).isEqualTo("java.io.IOException: reset");
    }

    @Test
    void outputWithoutAReportIsRefused() {
        assertThatThrownBy(() -> LoadResult.parse(List.of("Exception in thread main")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no report");
    }

    private static List<String> printed(LoadResult result) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        result.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
