package io.jupiter.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.example.benchmark.BenchmarkClient;
import io.jupiter.example.benchmark.BenchmarkServer;
import io.jupiter.example.demo.Demo;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.testkit.TestCertificates;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example commands' {@code --tls-*} flags, on 127.0.0.1 with certificates made by {@code openssl}. */
class TlsCommandsTest {

    @TempDir
    static Path certDir;
    private static TestCertificates certs;

    @BeforeAll
    static void makeCertificates() throws IOException {
        assumeTrue(TestCertificates.opensslAvailable(), TestCertificates.SKIP_MESSAGE);
        certs = TestCertificates.create(certDir);
    }

    @Test
    void demoRunsWithMutualTlsOnEveryPort() throws Exception {
        String out = captureStdout(() -> assertThat(Demo.run(new String[] {"demo",
                "--tls-cert", certs.serverCert().toString(), "--tls-key", certs.serverKey().toString(),
                "--tls-trust", certs.caCert().toString(), "--tls-client-auth"})).isZero());
        assertThat(out).contains("(TLS)", "(TLS, client certificates required)", "every call behaved as expected")
                .doesNotContain("MISMATCH", "FAILED");
    }

    @Test
    void benchmarkClientCallsABenchmarkServerOverMutualTls() throws Exception {
        Set<String> known = new HashSet<>(Set.of("host", "port", "provider-threads", "io-threads"));
        known.addAll(TlsOption.FLAGS);
        try (JupiterServer server = BenchmarkServer.newServer(new Flags(new String[] {"benchmark-server",
                "--host", "127.0.0.1", "--port", "0", "--provider-threads", "2", "--io-threads", "1",
                "--tls-cert", certs.serverCert().toString(), "--tls-key", certs.serverKey().toString(),
                "--tls-trust", certs.caCert().toString(), "--tls-client-auth"}, 1, known, TlsOption.SWITCHES))) {
            int port = server.start().getPort();
            String out = captureStdout(() -> assertThat(BenchmarkClient.run(new String[] {"benchmark-client",
                    "--port", String.valueOf(port), "--threads", "2", "--warmup", "0", "--seconds", "1",
                    "--tls-trust", certs.caCert().toString(), "--tls-cert", certs.clientCert().toString(),
                    "--tls-key", certs.clientKey().toString()})).isZero());
            assertThat(out).contains("tls=on")
                    .containsPattern("Request count: [1-9][0-9]*, time: 1 second, qps: [1-9][0-9]*")
                    .doesNotContain("Failed calls:");
        }
    }

    @Test
    void incompleteTlsFlagsAreRefused() {
        Set<String> known = TlsOption.FLAGS;
        assertThatThrownBy(() -> TlsOption.server(new Flags(new String[] {"--tls-cert",
                certs.serverCert().toString()}, 0, known, TlsOption.SWITCHES)))
                .hasMessageContaining("--tls-cert and --tls-key go together");
        assertThatThrownBy(() -> TlsOption.server(new Flags(new String[] {"--tls-client-auth"}, 0, known,
                TlsOption.SWITCHES))).hasMessageContaining("need --tls-cert and --tls-key");
        assertThatThrownBy(() -> TlsOption.client(new Flags(new String[] {"--tls-cert", "a", "--tls-key", "b"}, 0,
                known, TlsOption.SWITCHES))).hasMessageContaining("need --tls-trust");
        assertThatThrownBy(() -> TlsOption.server(new Flags(new String[] {"--tls-cert", "/nonexistent.crt",
                "--tls-key", certs.serverKey().toString()}, 0, known, TlsOption.SWITCHES)))
                .hasMessageContaining("/nonexistent.crt").hasMessageContaining("expected: an existing file");
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static synchronized String captureStdout(ThrowingRunnable body) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            System.setOut(original);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        original.print(out);
        return out;
    }
}
