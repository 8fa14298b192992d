package io.jupiter.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.event.Level;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.SubstituteLogger;

class ThrottledWarningTest {

    private final List<String> lines = new ArrayList<>();

    @Test
    void eachPeerGetsOneLineAPeriodAndTheDroppedOnesAreCounted() throws Exception {
        ThrottledWarning warning = new ThrottledWarning(recording(), 1, TimeUnit.HOURS);
        InetAddress noisy = InetAddress.getByName("10.0.0.1");
        InetAddress quiet = InetAddress.getByName("10.0.0.2");
        for (int i = 0; i < 1000; i++) {
            warning.warnFor(noisy, "bad frame from {}", noisy.getHostAddress());
        }
        warning.warnFor(quiet, "bad frame from {}", quiet.getHostAddress());
        // The noisy peer's flood neither fills the log nor hides the quiet peer's warning.
        assertThat(lines).containsExactly("bad frame from 10.0.0.1", "bad frame from 10.0.0.2");
    }

    @Test
    void theNextLineSaysHowManyWereDropped() {
        ThrottledWarning warning = new ThrottledWarning(recording(), 50, TimeUnit.MILLISECONDS);
        for (int i = 0; i < 10; i++) {
            warning.warn("burst");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (lines.size() < 2 && System.nanoTime() < deadline) {
            warning.warn("again");
            Thread.onSpinWait(); // each call before the interval ends is one more dropped line
        }
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).isEqualTo("burst");
        assertThat(lines.get(1)).matches("again … and [\\d,]+ more like it in the 50 ms after the previous one");
        int dropped = Integer.parseInt(lines.get(1).replaceAll("\\D", ""));
        assertThat(dropped).isGreaterThanOrEqualTo(9);
    }

    @Test
    void eachCauseOfAPeerGetsItsOwnLineAndTheDroppedOnesAreCountedForMetrics() throws Exception {
        ThrottledWarning warning = new ThrottledWarning(recording(), 1, TimeUnit.HOURS);
        InetAddress noisy = InetAddress.getByName("10.0.0.1");
        for (int i = 0; i < 100; i++) {
            warning.logFor(noisy, "malformed", "malformed frame from {}", noisy.getHostAddress());
            warning.logFor(noisy, "reset", "reset by {}", noisy.getHostAddress());
        }
        // One cause's flood does not hide the same peer's other cause.
        assertThat(lines).containsExactly("malformed frame from 10.0.0.1", "reset by 10.0.0.1");
        assertThat(warning.logged()).isEqualTo(2);
        assertThat(warning.suppressed()).isEqualTo(198);
    }

    @Test
    void peersBeyondTheCapShareOneLinePerCauseAndTheTableStaysBounded() throws Exception {
        ThrottledWarning warning = new ThrottledWarning(recording(), 1, TimeUnit.HOURS, Level.WARN, 8);
        // A hostile peer with many addresses: 1,000 addresses, two causes each.
        for (int i = 0; i < 1000; i++) {
            InetAddress address = InetAddress.getByName("10.1." + (i / 250) + "." + (i % 250));
            warning.logFor(address, "malformed", "malformed frame from {}", address.getHostAddress());
            warning.logFor(address, "reset", "reset by {}", address.getHostAddress());
        }
        // The first 8 pairs got their own lines; every other peer shares one line per cause.
        assertThat(lines).hasSize(10);
        assertThat(lines.subList(8, 10))
                .allMatch(line -> line.endsWith("(one line for every peer beyond the first 8)"));
        assertThat(warning.remembered()).isEqualTo(10);
        assertThat(warning.logged() + warning.suppressed()).isEqualTo(2000);
    }

    @Test
    void peersWhoseIntervalIsOverMakeRoomForNewOnes() throws Exception {
        ThrottledWarning warning = new ThrottledWarning(recording(), 20, TimeUnit.MILLISECONDS, Level.WARN, 4);
        for (int i = 1; i <= 4; i++) {
            warning.warnFor("10.0.0." + i, "from {}", i);
        }
        long over = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(40);
        while (System.nanoTime() - over < 0) {
            Thread.onSpinWait(); // the four peers' interval ends
        }
        warning.warnFor("10.0.0.5", "from {}", 5);
        // The idle four were forgotten: the fifth has a line of its own, not the shared one.
        assertThat(lines).containsExactly("from 1", "from 2", "from 3", "from 4", "from 5");
        assertThat(warning.remembered()).isEqualTo(1);
    }

    @Test
    void linesGoOutAtTheLevelAsked() {
        ThrottledWarning info = new ThrottledWarning(recording(), 1, TimeUnit.HOURS, Level.INFO);
        assertThat(info.logFor(null, null, "closing {}", "x")).isTrue();
        assertThat(info.logFor(null, null, "closing {}", "y")).isFalse();
        assertThat(lines).containsExactly("INFO closing x");
    }

    /** A logger that keeps the formatted WARN lines. */
    private Logger recording() {
        return new SubstituteLogger("test", null, false) {
            @Override
            public void warn(String format, Object... arguments) {
                lines.add(MessageFormatter.arrayFormat(format, arguments).getMessage());
            }

            @Override
            public void warn(String format, Object argument) {
                lines.add(MessageFormatter.format(format, argument).getMessage());
            }

            @Override
            public void warn(String message) {
                lines.add(message);
            }

            @Override
            public void info(String format, Object... arguments) {
                lines.add("INFO " + MessageFormatter.arrayFormat(format, arguments).getMessage());
            }
        };
    }
}
