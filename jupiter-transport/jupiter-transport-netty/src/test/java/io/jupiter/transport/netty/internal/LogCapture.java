package io.jupiter.transport.netty.internal;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Captures what the test logging backend prints to {@link System#out} and {@link System#err} while open (console
 * appenders write to whatever those streams are at the time); used on code that runs on the test thread, such as
 * an {@code EmbeddedChannel}.
 */
public final class LogCapture implements AutoCloseable {

    private final PrintStream originalOut = System.out;
    private final PrintStream originalErr = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    public LogCapture() {
        PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
    }

    /** The captured lines at {@code level} ({@code WARN}, {@code INFO}, ...). */
    public List<String> lines(String level) {
        String text = captured.toString(StandardCharsets.UTF_8);
        return Arrays.stream(text.split("\\R")).filter(line -> line.contains(" " + level + " ")).toList();
    }

    @Override
    public void close() {
        System.setOut(originalOut);
        System.setErr(originalErr);
        originalErr.print(captured.toString(StandardCharsets.UTF_8));
    }
}
