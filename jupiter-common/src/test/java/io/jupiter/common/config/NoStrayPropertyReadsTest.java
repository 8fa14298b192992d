package io.jupiter.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * System properties are read through {@link Setting#get()} only, so that every one is declared in
 * {@link JupiterSettings}, checked, and listed in docs/configuration.md. A new {@code System.getProperty} in main
 * sources fails here; declare a setting instead.
 */
class NoStrayPropertyReadsTest {

    private static final Pattern READ = Pattern.compile(
            "System\\.getProperty\\(|Boolean\\.getBoolean\\(|Integer\\.getInteger\\(|Long\\.getLong\\(");

    /** Files that may read properties directly, and why. */
    private static final Map<String, String> ALLOWED = Map.ofEntries(
            Map.entry("Setting.java",
                    "the one reader of Jupiter's properties"),
            Map.entry("ProtostuffSerializer.java",
                    "copies settings to protostuff's own properties unless those are set"),
            Map.entry("HessianStart.java",
                    "sets Hessian's own com.caucho.hessian.unsafe to false unless the user set it"),
            Map.entry("ProtostuffStart.java",
                    "sets protostuff's own use_sun_misc_unsafe to false unless the user set it"),
            Map.entry("KryoStart.java",
                    "sets Kryo's own kryo.unsafe to false unless the user set it"),
            Map.entry("LegacyNameInput.java",
                    "mirrors protostuff's own io.protostuff.cesu8_compat, parsed as protostuff does"),
            Map.entry("ArgumentReader.java",
                    "mirrors protostuff's own allow_null_array_element, parsed as protostuff does"),
            Map.entry("JupiterTarget.java",
                    "the benchmark driver's option to its target process, not a framework setting"),
            Map.entry("StreamReader.java",
                    "the stream benchmark's window, an option of the target process, not a setting"),
            Map.entry("Compare.java",
                    "JDK properties (os.name, java.version) in the benchmark report"),
            Map.entry("ChildJvm.java",
                    "java.home, to start a child JVM"),
            Map.entry("ConnectionCost.java",
                    "java.home and the class path, to start the server JVM it measures"));

    @Test
    void mainSourcesReadPropertiesOnlyThroughSettings() throws IOException {
        Path root = RepositoryRoot.find();
        List<String> stray;
        try (Stream<Path> files = Files.walk(root)) {
            stray = files.filter(NoStrayPropertyReadsTest::isMainSource)
                    .filter(file -> !ALLOWED.containsKey(file.getFileName().toString()))
                    .filter(NoStrayPropertyReadsTest::readsAProperty)
                    .map(file -> root.relativize(file).toString())
                    .sorted()
                    .collect(Collectors.toList());
        }
        assertThat(stray).as("main sources that read system properties without a JupiterSettings declaration")
                .isEmpty();
    }

    private static boolean isMainSource(Path file) {
        String path = file.toString().replace('\\', '/');
        return path.endsWith(".java") && path.contains("/src/main/java/") && !path.contains("/target/");
    }

    private static boolean readsAProperty(Path file) {
        try {
            return READ.matcher(Files.readString(file, StandardCharsets.UTF_8)).find();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
