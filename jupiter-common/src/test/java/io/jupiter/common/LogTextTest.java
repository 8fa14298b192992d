package io.jupiter.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {

    @Test
    void plainTextIsKeptAsItIs() {
        String name = "io.jupiter.example.GreeterService";
        assertThat(LogText.of(name)).isSameAs(name);
        assertThat(LogText.of(null)).isEqualTo("null");
    }

    @Test
    void lineBreaksAndOtherControlsCannotForgeALogLine() {
        assertThat(LogText.of("hello\r\n12:00:00.000 ERROR forged")).isEqualTo("hello??12:00:00.000 ERROR forged");
        assertThat(LogText.of("tab\there\u0000\u001b[31m\u2028")).isEqualTo("tab?here??[31m?");
    }

    @Test
    void c1ControlsAreNeutralisedToo() {
        // Issue #25, item 6: U+0085 (next line) breaks lines in some log viewers, U+009B is a terminal's CSI.
        assertThat(LogText.of("a\u0085b\u009b31mc\u0080\u009fd\u00a0e")).isEqualTo("a?b?31mc??d\u00a0e");
    }

    @Test
    void longTextIsCutWithItsLength() {
        String text = "a".repeat(300) + "\n";
        assertThat(LogText.of(text)).isEqualTo("a".repeat(LogText.MAX_LENGTH) + "...(301 chars)");
        assertThat(LogText.of("\n" + "b".repeat(299))).isEqualTo("?" + "b".repeat(255) + "...(300 chars)");
    }
}
