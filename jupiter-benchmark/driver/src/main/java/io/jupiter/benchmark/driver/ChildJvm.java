package io.jupiter.benchmark.driver;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One {@link DriverMain} JVM started by {@link Compare}: its output (stdout and stderr) goes line by line to a log
 * file and is kept in memory for parsing.
 */
final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final List<String> lines = new ArrayList<>();
    private final CountDownLatch ready = new CountDownLatch(1);
    private final Thread pump;

    private ChildJvm(List<String> command, Path log) throws IOException {
        this.log = log;
        Files.createDirectories(log.getParent());
        this.process = new ProcessBuilder(command).redirectErrorStream(true).start();
        this.pump = new Thread(this::copyOutput, "child-output-" + log.getFileName());
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Starts {@code DriverMain <role> <flags>} for {@code spec} with {@code jvmOptions} before the target's own,
     * logging to {@code log}.
     */
    static ChildJvm start(TargetSpec spec, List<String> jvmOptions, String role, List<String> flags, Path log)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(spec.jvmOptions());
        command.add("-cp");
        command.add(spec.classPath());
        command.add(DriverMain.class.getName());
        command.add(role);
        command.add("--target");
        command.add(spec.adapter());
        command.addAll(flags);
        return new ChildJvm(command, log);
    }

    /** Waits until the server printed {@code ready}; throws with the log's tail if it exited or took too long. */
    void awaitReady(long timeoutSeconds) throws InterruptedException {
        if (!ready.await(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new IllegalStateException("server not ready after " + timeoutSeconds + " s" + tail());
        }
        if (!process.isAlive() && !printedReady()) {
            throw new IllegalStateException("server exited with " + process.exitValue() + tail());
        }
    }

    /** Waits for the process to exit; returns its exit status, or throws (after killing it) if it took too long. */
    int awaitExit(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("client still running after " + timeoutSeconds + " s" + tail());
        }
        pump.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    /** What the process printed so far. */
    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** Stops the process (SIGTERM, then SIGKILL after 15 s). */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(15, TimeUnit.SECONDS);
        }
        pump.join(TimeUnit.SECONDS.toMillis(5));
    }

    private void copyOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.println(line);
                synchronized (this) {
                    lines.add(line);
                }
                if (line.startsWith("ready ")) {
                    ready.countDown();
                }
            }
        } catch (IOException e) {
            synchronized (this) {
                lines.add("(output lost: " + e + ")");
            }
        } finally {
            ready.countDown();
        }
    }

    private synchronized boolean printedReady() {
        return lines.stream().anyMatch(line -> line.startsWith("ready "));
    }

    private synchronized String tail() {
        List<String> last = lines.subList(Math.max(0, lines.size() - 15), lines.size());
        return "; log " + log + (last.isEmpty() ? " is empty" : ", last lines:\n  " + String.join("\n  ", last));
    }
}
