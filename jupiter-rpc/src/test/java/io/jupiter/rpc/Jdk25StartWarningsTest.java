package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On JDK 25 the JVM prints {@code WARNING:} lines when a library calls one of {@code sun.misc.Unsafe}'s memory
 * methods. A server and a client started there make their first calls with every serializer
 * ({@link FirstCallsProgram}); Hessian's and Java serialization's calls must use none of those methods. (Hessian's
 * own start-up and protostuff's and Kryo's first calls still do: docs/cli.md.) The program runs from a
 * jar whose manifest declares {@code Enable-Native-Access: ALL-UNNAMED}, as the CLI jar's does (for Netty's epoll
 * library; docs/cli.md), and names the test class path. Skipped, saying so, when no JDK 25 is found: the
 * {@code jupiter.test.jdk25} property, then {@code /usr/lib/jvm/temurin-25-jdk-amd64}.
 */
class Jdk25StartWarningsTest {

    private static final String DEFAULT_JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64";

    /**
     * Hessian's and Java serialization's calls use none of Unsafe's memory methods. With
     * {@code --sun-misc-unsafe-memory-access=debug} (used here only to observe) the JVM reports every such use with
     * its stack, not just the first; none may come between {@code start HESSIAN} or {@code start JAVA} and the
     * next serializer's start.
     */
    @Test
    void hessianAndJavaCallsUseNoUnsafeMemoryMethod(@TempDir Path dir) throws Exception {
        List<String> lines = runOnJdk25(dir, "--sun-misc-unsafe-memory-access=debug");
        String section = "";
        List<String> uses = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("start ") || line.equals("done")) {
                section = line;
            } else if (line.startsWith("WARNING: sun.misc.Unsafe::")
                    && (section.equals("start HESSIAN") || section.equals("start JAVA"))) {
                uses.add(section + ": " + line);
            }
        }
        assertThat(uses).as("Unsafe memory methods used by the calls of Hessian and Java serialization").isEmpty();
        assertThat(lines).as("Unsafe's uses are reported in this mode").anyMatch(
                line -> line.startsWith("WARNING: sun.misc.Unsafe::"));
    }

    /** Runs {@link FirstCallsProgram} on JDK 25 (or skips, saying why) and returns its output. */
    private static List<String> runOnJdk25(Path dir, String... jvmOptions) throws Exception {
        Path java = Paths.get(System.getProperty("jupiter.test.jdk25", DEFAULT_JDK25), "bin", "java");
        Assumptions.assumeTrue(Files.isExecutable(java),
                "SKIPPED: no JDK 25 at " + java + " (set -Djupiter.test.jdk25=<jdk home> to run this test)");
        Path output = dir.resolve("output.txt");
        Path jar = launcher(dir.resolve("first-calls.jar"));
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx256m"));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-jar", jar.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                .start();
        boolean exited = process.waitFor(180, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        String all = String.join(System.lineSeparator(), lines);
        assertThat(exited).as("the JDK 25 program exited in time:%n%s", all).isTrue();
        assertThat(process.exitValue()).as("exit status:%n%s", all).isZero();
        assertThat(lines).as("the JDK 25 program's output").contains("start HESSIAN", "start PROTOSTUFF",
                "start KRYO", "start JAVA", "done");
        return lines;
    }

    /** An empty jar whose manifest runs {@link FirstCallsProgram} on this test's class path. */
    private static Path launcher(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(Attributes.Name.MAIN_CLASS, FirstCallsProgram.class.getName());
        main.put(new Attributes.Name("Enable-Native-Access"), "ALL-UNNAMED");
        main.put(Attributes.Name.CLASS_PATH, Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Paths.get(entry).toUri().toString()).collect(Collectors.joining(" ")));
        try (OutputStream out = Files.newOutputStream(jar);
             JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            return jar;
        }
    }
}
