package io.jupiter.example.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConnectionCostTest {

    @Test
    void countsAscendFromOne() {
        assertThat(ConnectionCost.counts(" 1, 10,100 ,10000")).containsExactly(1, 10, 100, 10_000);
        assertThatThrownBy(() -> ConnectionCost.counts("10,1")).hasMessageContaining("must ascend");
        assertThatThrownBy(() -> ConnectionCost.counts("0,10")).hasMessageContaining("from 1");
        assertThatThrownBy(() -> ConnectionCost.counts("ten")).hasMessageContaining("ascending numbers");
    }

    /** A server JVM of the target, real connections on 127.0.0.1, a call on each, both sides' memory per row. */
    @ParameterizedTest
    @ValueSource(strings = {"jupiter", "raw"})
    void reportsMemoryPerConnectionOfBothSides(String target) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = ConnectionCost.run(new String[] {"connection-cost", "--target", target, "--counts", "1,3",
            "--server-jvm-options", "-Xmx256m", "--timeout", "60"}, new PrintStream(bytes, true,
                StandardCharsets.UTF_8));
        String report = bytes.toString(StandardCharsets.UTF_8);
        assertThat(status).as(report).isZero();
        assertThat(report).startsWith(target + ":").contains("| connections | client heap |")
                .containsPattern("\\| 0 \\| [0-9,]+ KiB \\|")
                .containsPattern("\\| 1 \\| [0-9,]+ KiB \\| [0-9,]+ KiB \\| [0-9,]+ KiB \\| [0-9,]+ KiB "
                        + "\\| -?[0-9,]+ B \\| -?[0-9,]+ B \\| -?[0-9,]+ B \\| -?[0-9,]+ B \\|")
                .containsPattern("\\| 3 \\| [0-9,]+ KiB \\|");
    }
}
