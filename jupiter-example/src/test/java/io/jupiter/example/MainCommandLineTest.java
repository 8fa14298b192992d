package io.jupiter.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The jar's entry point as a user meets it, in a JVM of its own: help flags, and a port already in use. */
class MainCommandLineTest {

    @ParameterizedTest
    @ValueSource(strings = {"-h", "--help", "help", "demo --help", "benchmark-server -h"})
    void helpPrintsTheUsageAndSucceeds(String flags) throws Exception {
        Result result = run(flags.split(" "));

        assertThat(result.status).isZero();
        assertThat(result.output).startsWith("usage: java -jar jupiter-example.jar");
    }

    @Test
    void aPortInUseEndsTheServerWithOneLineAndNoStackTrace() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Result result = run("benchmark-server", "--host", "127.0.0.1", "--port",
                    String.valueOf(taken.getLocalPort()));

            assertThat(result.status).isEqualTo(1);
            assertThat(result.output).contains("error: benchmark-server cannot listen:")
                    .doesNotContain("\tat ").doesNotContain("Exception in thread");
        }
    }

    private record Result(int status, String output) {
    }

    private static Result run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(System.getProperty("java.home") + File.separator + "bin"
                + File.separator + "java", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("'" + String.join(" ", args) + "' did not end within 60 s");
        }
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8));
    }
}
