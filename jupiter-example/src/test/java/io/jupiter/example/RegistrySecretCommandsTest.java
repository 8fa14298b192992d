package io.jupiter.example;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.EmbeddedRegistryFactory;
import io.jupiter.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code JUPITER_REGISTRY_SECRET} as a user sets it: in the environment of a separate JVM running the command (the
 * variable cannot be set inside this one).
 */
class RegistrySecretCommandsTest {

    private static final String SECRET = "a registry secret for the example tests";
    private static final ServiceMeta SERVICE = new ServiceMeta("test", "greeter", "1.0.0");

    @TempDir
    Path dir;

    @Test
    void theRegistryCommandRequiresTheSecretFromTheEnvironment() throws Exception {
        Path log = dir.resolve("registry.out");
        Process registry = command(SECRET, log, "registry", "--port", "0");
        try {
            AtomicReference<String> line = new AtomicReference<>();
            Await.until("the registry command's first line", Duration.ofSeconds(60), () -> {
                line.set(read(log).lines().filter(l -> l.contains("registry listening on")).findFirst()
                        .orElse(null));
                return line.get() != null || !registry.isAlive();
            });
            assertThat(line.get()).as(read(log)).isNotNull().contains("/127.0.0.1:")
                    .contains("clients need the same JUPITER_REGISTRY_SECRET");
            Matcher port = Pattern.compile(":(\\d+) \\(").matcher(line.get());
            assertThat(port.find()).as(line.get()).isTrue();
            String addresses = "127.0.0.1:" + port.group(1);
            try (RegistryService right = EmbeddedRegistryFactory.connect(addresses, 200, null, SECRET);
                 RegistryService wrong = EmbeddedRegistryFactory.connect(addresses, 200, null,
                         "some other secret, long enough")) {
                right.register(new RegisterMeta(new ProviderAddress(null, 18201), SERVICE, 50, 1));
                wrong.register(new RegisterMeta(new ProviderAddress(null, 18202), SERVICE, 50, 1));
                assertThat(right.awaitRegistered(10_000)).isTrue();
                assertThat(wrong.awaitRegistered(500)).isFalse();
            }
            Await.until("the wrong secret refused in the registry's log", Duration.ofSeconds(10),
                    () -> read(log).contains("wrong registry secret"));
        } finally {
            registry.destroy();
            assertThat(registry.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void theDemoRunsWithASecret() throws Exception {
        Path log = dir.resolve("demo.out");
        Process demo = command(SECRET, log, "demo");
        try {
            assertThat(demo.waitFor(120, TimeUnit.SECONDS)).as("the demo ended").isTrue();
            assertThat(demo.exitValue()).as(read(log)).isZero();
            assertThat(read(log)).contains("demo: every call behaved as expected");
        } finally {
            demo.destroy();
        }
    }

    private static Process command(String secret, Path output, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put(EmbeddedRegistryFactory.SECRET_ENVIRONMENT_VARIABLE, secret);
        return builder.start();
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
