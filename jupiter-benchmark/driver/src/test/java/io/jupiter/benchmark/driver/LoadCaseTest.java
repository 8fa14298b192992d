package io.jupiter.benchmark.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoadCaseTest {

    @Test
    void payloadCasesCallHello() {
        LoadCase loadCase = LoadCase.parse(" async  32 1k ");
        assertThat(loadCase).isEqualTo(new LoadCase("async", 32, "1k", "hello"));
        assertThat(loadCase).hasToString("async 32 1k");
        assertThat(loadCase.clientFlags()).containsExactly("--mode", "async", "--threads", "32", "--payload", "1k",
                "--scenario", "hello");
    }

    @Test
    void theBodySizesOfTheCostCurveAreCases() {
        assertThat(LoadCase.parse("sync 32 1m")).isEqualTo(new LoadCase("sync", 32, "1m", "hello"));
        assertThat(Payloads.of("16b")).hasSize(16);
        assertThat(Payloads.of("16k")).hasSize(16 * 1024);
        assertThat(Payloads.of("256k")).hasSize(256 * 1024);
        assertThat(Payloads.of("1m")).hasSize(1024 * 1024).matches("j+");
        assertThatThrownBy(() -> LoadCase.parse("sync 32 4m")).hasMessageContaining("small|16b|1k|16k|256k|1m");
    }

    @Test
    void userScenariosAreNamedInsteadOfThePayload() {
        assertThat(LoadCase.parse("sync 8 listUser")).isEqualTo(new LoadCase("sync", 8, "small", "listUser"));
        assertThat(LoadCase.parse("sync 8 listUser")).hasToString("sync 8 listUser");
    }

    @Test
    void streamCasesNameTheStreamsAndThePayload() {
        LoadCase loadCase = LoadCase.parse("stream 100 small");
        assertThat(loadCase).isEqualTo(new LoadCase("stream", 100, "small", "hello"));
        assertThat(loadCase).hasToString("stream 100 small");
        assertThat(loadCase.clientFlags()).containsSequence("--mode", "stream", "--threads", "100");
        assertThatThrownBy(() -> LoadCase.parse("stream 1 listUser"))
                .hasMessageContaining("small|16b|1k|16k|256k|1m");
        assertThat(LoadCase.parse("fanout 10000 small")).hasToString("fanout 10000 small");
        assertThat(LoadCase.parse("upload 4 small").clientFlags()).containsSequence("--mode", "upload", "--threads",
                "4");
        assertThat(LoadCase.parse("echo 8 small").clientFlags()).containsSequence("--mode", "echo", "--threads", "8");
        assertThatThrownBy(() -> LoadCase.parse("stream 10000 small")).hasMessageContaining("1..4096");
    }

    @Test
    void listsAreCommaSeparated() {
        assertThat(LoadCase.parseList("sync 1 small,, async 2 small")).extracting(LoadCase::toString)
                .isEqualTo(List.of("sync 1 small", "async 2 small"));
    }

    @Test
    void badCasesSayWhatIsExpected() {
        assertThatThrownBy(() -> LoadCase.parse("future 32 small")).hasMessageContaining("<sync|async>");
        assertThatThrownBy(() -> LoadCase.parse("sync many small")).hasMessageContaining("threads must be a number");
        assertThatThrownBy(() -> LoadCase.parse("sync 0 small")).hasMessageContaining("1..4096");
        assertThatThrownBy(() -> LoadCase.parse("sync 1 2k")).hasMessageContaining("small|16b|1k|16k|256k|1m");
        assertThatThrownBy(() -> LoadCase.parseList(" , ")).hasMessageContaining("no cases");
    }
}
