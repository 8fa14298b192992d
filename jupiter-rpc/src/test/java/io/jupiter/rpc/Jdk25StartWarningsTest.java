package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.serialization.SerializerType;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From JDK 24 on the JVM prints four {@code WARNING:} lines at the first call of one of {@code sun.misc.Unsafe}'s
 * memory methods. A child JVM starts a server and a client and makes its first calls with the serializers
 * ({@link FirstCallsProgram}: values, a user class, an enum, {@code BigDecimal}, {@code BigInteger}, a declared and
 * an undeclared exception with their stack traces, {@code java.time} arguments); every serializer's start and calls
 * must print nothing at all (docs/cli.md, "Java versions").
 *
 * <p>The child runs on the JDK named by {@code jupiter.test.jdk25}, else on the running JDK if it is 24 or later,
 * else on {@code /usr/lib/jvm/temurin-25-jdk-amd64} if present, else on the running JDK (on JDK 17 it must be quiet
 * too; the check of where {@code Unsafe} is used is then skipped). The program runs from a jar whose manifest
 * declares {@code Enable-Native-Access: ALL-UNNAMED}, as the CLI jar's does (for Netty's epoll library;
 * docs/cli.md), and {@code Add-Opens} for the JDK packages whose fields protostuff writes (protostuff's
 * {@code ProtostuffStart} then starts it in its reflective mode, with the same bytes), and names the test class path.
 * No JVM option is given in the quiet run.
 */
class Jdk25StartWarningsTest {

    private static final String DEFAULT_JDK25 = "/usr/lib/jvm/temurin-25-jdk-amd64";

    /** The serializers that must start and make their first calls without a word. */
    private static final List<SerializerType> QUIET = List.of(SerializerType.PROTOSTUFF, SerializerType.HESSIAN,
            SerializerType.KRYO, SerializerType.JAVA);

    /** The start and first calls of every serializer print nothing but the program's lines. */
    @Test
    void startAndFirstCallsPrintNothing(@TempDir Path dir) throws Exception {
        List<String> args = QUIET.stream().map(Enum::name).toList();
        List<String> lines = run(dir, List.of(), args);
        List<String> expected = new ArrayList<>(List.of("start server"));
        args.forEach(name -> expected.add("start " + name));
        expected.add("done");
        assertThat(lines).as("everything the JVM (%s) printed", childJdk()).containsExactlyElementsOf(expected);
    }

    /**
     * With {@code --sun-misc-unsafe-memory-access=debug} (used here only to observe) the JVM reports every use of
     * {@code Unsafe}'s memory methods with its stack, not just the first: there is none, at the server's start or in
     * any serializer's calls. With {@code -Dprotostuff.runtime.use_sun_misc_unsafe=true} protostuff keeps its
     * {@code Unsafe} mode, and its uses are reported (which shows that this mode reports them).
     */
    @Test
    void noUnsafeMemoryMethodIsUsedUnlessProtostuffIsToldTo(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(featureVersion(childJdk()) >= 24,
                "SKIPPED: " + childJdk() + " is older than JDK 24 (set -Djupiter.test.jdk25=<jdk home>)");
        assertThat(unsafeUses(run(dir, List.of("--sun-misc-unsafe-memory-access=debug"), List.of()))).as(
                "Unsafe memory methods used").isEmpty();
        List<String> told = unsafeUses(run(dir, List.of("--sun-misc-unsafe-memory-access=debug",
                "-Dprotostuff.runtime.use_sun_misc_unsafe=true"), List.of()));
        assertThat(told).as("Unsafe's uses with protostuff told to use it").isNotEmpty()
                .allMatch(line -> line.startsWith("start PROTOSTUFF: ") && line.contains(" called by io.protostuff."));
    }

    /** The {@code Unsafe} uses reported in {@code lines}, each after the section (serializer) it is in. */
    private static List<String> unsafeUses(List<String> lines) {
        String section = "";
        List<String> uses = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("start ") || line.equals("done")) {
                section = line;
            } else if (line.startsWith("WARNING: sun.misc.Unsafe::")) {
                uses.add(section + ": " + line);
            }
        }
        return uses;
    }

    /** The JDK the child runs on (see the class comment). */
    private static Path childJdk() {
        String named = System.getProperty("jupiter.test.jdk25");
        if (named != null) {
            return Paths.get(named);
        }
        Path running = Paths.get(System.getProperty("java.home"));
        if (Runtime.version().feature() >= 24 || !Files.isExecutable(Paths.get(DEFAULT_JDK25, "bin", "java"))) {
            return running;
        }
        return Paths.get(DEFAULT_JDK25);
    }

    /** The feature version of the JDK at {@code home}, from its {@code release} file. */
    private static int featureVersion(Path home) throws IOException {
        Matcher version = Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(Files.readString(home.resolve("release")));
        assertThat(version.find()).as("JAVA_VERSION in %s/release", home).isTrue();
        return Integer.parseInt(version.group(1));
    }

    /** Runs {@link FirstCallsProgram} with {@code args} on {@link #childJdk()} and returns all it printed. */
    private static List<String> run(Path dir, List<String> jvmOptions, List<String> args) throws Exception {
        Path java = childJdk().resolve("bin").resolve("java");
        assertThat(java).as("the child's java").isExecutable();
        Path output = dir.resolve("output.txt");
        Path jar = launcher(dir.resolve("first-calls.jar"));
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx256m"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                .start();
        boolean exited = process.waitFor(180, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        String all = String.join(System.lineSeparator(), lines);
        assertThat(exited).as("the program exited in time:%n%s", all).isTrue();
        assertThat(process.exitValue()).as("exit status:%n%s", all).isZero();
        assertThat(lines).as("the program's output").contains("start server", "done");
        return lines;
    }

    /** The packages protostuff's serializer needs open to start reflectively (its {@code ProtostuffStart.OPENED}). */
    @SuppressWarnings("unchecked")
    private static List<String> protostuffsPackages() {
        try {
            // The serializer first: its initialisation sets protostuff's properties, then starts protostuff (through
            // ProtostuffStart); touching ProtostuffStart first would start protostuff without them, for every later
            // test of this JVM.
            Class.forName("io.jupiter.serialization.protostuff.ProtostuffSerializer");
            Field opened = Class.forName("io.jupiter.serialization.protostuff.ProtostuffStart")
                    .getDeclaredField("OPENED");
            opened.setAccessible(true);
            return (List<String>) opened.get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** An empty jar whose manifest runs {@link FirstCallsProgram} on this test's class path. */
    private static Path launcher(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(Attributes.Name.MAIN_CLASS, FirstCallsProgram.class.getName());
        main.put(new Attributes.Name("Enable-Native-Access"), "ALL-UNNAMED");
        main.put(new Attributes.Name("Add-Opens"), String.join(" ", protostuffsPackages()));
        main.put(Attributes.Name.CLASS_PATH, Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Paths.get(entry).toUri().toString()).collect(Collectors.joining(" ")));
        try (OutputStream out = Files.newOutputStream(jar);
             JarOutputStream ignored = new JarOutputStream(out, manifest)) {
            return jar;
        }
    }
}
