package io.jupiter.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.example.benchmark.BenchmarkClient;
import io.jupiter.example.benchmark.BenchmarkServer;
import io.jupiter.example.benchmark.BenchmarkServiceImpl;
import io.jupiter.example.benchmark.RawEchoClient;
import io.jupiter.example.benchmark.RawEchoServer;
import io.jupiter.example.demo.Demo;
import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import io.netty.channel.epoll.Epoll;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The example commands run as a user runs them, on 127.0.0.1, for a second or two each. */
class ExampleCommandsTest {

    @Test
    void demoSucceeds() throws Exception {
        String out = captureStdout(() -> assertThat(Demo.run(new String[] {"demo"})).isZero());
        assertThat(out).contains("serializer protostuff", "serializer hessian", "serializer kryo", "serializer java")
                .contains("every call behaved as expected").doesNotContain("MISMATCH", "FAILED");
    }

    @Test
    void benchmarkClientReportsQpsAgainstARealServer() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .serializers(SerializerType.values()).build()) {
            server.register(new BenchmarkServiceImpl());
            int port = server.start().getPort();
            for (String mode : new String[] {"sync", "future"}) {
                String out = captureStdout(() -> assertThat(BenchmarkClient.run(new String[] {"benchmark-client",
                        "--port", String.valueOf(port), "--mode", mode, "--threads", "2", "--warmup", "0",
                        "--seconds", "1", "--payload", "1k", "--serializer", "hessian"})).isZero());
                assertThat(out).containsPattern("Request count: [1-9][0-9]*, time: 1 second, qps: [1-9][0-9]*")
                        .containsPattern("Latency \\(us\\): p50=\\d+, p99=\\d+, p999=\\d+");
            }
        }
    }

    /** Each user scenario against the server {@code benchmark-server} builds, in both modes across the serializers. */
    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "existUser, sync, protostuff", "createUser, future, hessian", "getUser, sync, kryo", "listUser, future, java",
        "existUser, future, hessian", "createUser, sync, java", "getUser, future, protostuff", "listUser, sync, kryo"})
    void userScenariosRunWithoutFailures(String scenario, String mode, String serializer) throws Exception {
        try (JupiterServer server = patientBenchmarkServer()) {
            int port = server.start().getPort();
            String out = captureStdout(() -> assertThat(BenchmarkClient.run(new String[] {"benchmark-client",
                    "--port", String.valueOf(port), "--scenario", scenario, "--mode", mode, "--threads", "2",
                    "--warmup", "0", "--seconds", "1", "--serializer", serializer})).isZero());
            assertThat(out).contains("scenario=" + scenario, "serializer=" + serializer)
                    .containsPattern("Request count: [1-9][0-9]*, time: 1 second, qps: [1-9][0-9]*")
                    .containsPattern("Latency \\(us\\): p50=\\d+, p99=\\d+, p999=\\d+")
                    .doesNotContain("Failed calls:");
        }
    }

    @Test
    void aUserScenarioFindsTheServerThroughTheRegistry() throws Exception {
        try (RegistryServer registry = RegistryServer.builder().host("127.0.0.1").port(0).build()) {
            String url = "default://127.0.0.1:" + registry.start().getPort();
            try (JupiterServer server = benchmarkServer("--registry", url)) {
                server.start();
                assertThat(server.awaitPublished(10_000)).isTrue();
                String out = captureStdout(() -> assertThat(BenchmarkClient.run(new String[] {"benchmark-client",
                        "--registry", url, "--scenario", "listUser", "--threads", "2", "--warmup", "0",
                        "--seconds", "1"})).isZero());
                assertThat(out).contains("jupiter " + url, "scenario=listUser")
                        .containsPattern("Request count: [1-9][0-9]*, time: 1 second, qps: [1-9][0-9]*")
                        .doesNotContain("Failed calls:");
            }
        }
    }

    @Test
    void scenarioFlagsAreValidated() {
        assertThatThrownBy(() -> BenchmarkClient.run(new String[] {"benchmark-client", "--scenario", "deleteUser"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--scenario deleteUser")
                .hasMessageContaining("hello|existUser|createUser|getUser|listUser");
        assertThatThrownBy(() -> BenchmarkClient.run(new String[] {"benchmark-client", "--scenario", "getUser",
                "--payload", "1k"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--payload applies to --scenario hello");
        assertThatThrownBy(() -> RawEchoClient.run(new String[] {"raw-echo-client", "--scenario", "getUser"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown flag '--scenario'");
    }

    @Test
    void benchmarkServerAndClientTalkOverAUnixSocket(@TempDir Path dir) throws Exception {
        assumeTrue(Epoll.isAvailable(), "native epoll is unavailable: no Unix domain sockets");
        String socket = dir.resolve("benchmark.sock").toString();
        try (JupiterServer server = BenchmarkServer.newServer(new Flags(new String[] {"benchmark-server",
                "--unix-socket", socket, "--provider-threads", "2", "--io-threads", "1"}, 1,
                Set.of("unix-socket", "provider-threads", "io-threads")))) {
            server.start();
            assertThat(server.boundAddress()).hasToString(socket);
            String out = captureStdout(() -> assertThat(BenchmarkClient.run(new String[] {"benchmark-client",
                    "--unix-socket", socket, "--mode", "future", "--threads", "2", "--warmup", "0",
                    "--seconds", "1"})).isZero());
            assertThat(out).contains("jupiter unix:" + socket)
                    .containsPattern("Request count: [1-9][0-9]*, time: 1 second, qps: [1-9][0-9]*");
        }
        assertThatThrownBy(() -> BenchmarkClient.run(new String[] {"benchmark-client", "--unix-socket", socket,
                "--port", "18099"})).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--unix-socket replaces the TCP address: --port does not apply to it");
    }

    @Test
    void benchmarkServerServesBothServices() {
        try (JupiterServer server = benchmarkServer()) {
            assertThat(server.providedServices()).containsExactlyInAnyOrder(
                    new ServiceKey("test", "service", "1.0.0"), new ServiceKey("test", "userService", "1.0.0"));
        }
    }

    @Test
    void rawEchoClientReportsQpsAgainstTheRawEchoServer() throws Exception {
        TransportConfig config = TransportConfig.builder().threadNamePrefix("raw-echo-test").ioThreads(1).build();
        try (Acceptor echo = TransportFactory.load().newAcceptor(config, new InetSocketAddress("127.0.0.1", 0),
                new RawEchoServer.EchoHandler())) {
            int port = ((InetSocketAddress) echo.start()).getPort();
            String out = captureStdout(() -> assertThat(RawEchoClient.run(new String[] {"raw-echo-client",
                    "--port", String.valueOf(port), "--mode", "future", "--threads", "2", "--warmup", "0",
                    "--seconds", "1"})).isZero());
            assertThat(out).containsPattern("Request count: [1-9][0-9]*, time: 1 second, qps: [1-9][0-9]*");
        }
    }

    @Test
    void benchmarkClientFailsWhenCallsFail() throws Exception {
        // Nothing listens on this port: every call fails, and the exit status says so.
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        int finalPort = port;
        String out = captureStdout(() -> assertThat(BenchmarkClient.run(new String[] {"benchmark-client", "--port",
                String.valueOf(finalPort), "--threads", "1", "--warmup", "0", "--seconds", "1"})).isEqualTo(1));
        assertThat(out).contains("Failed calls:");
    }

    @Test
    void unknownFlagsAreRejectedWithTheKnownOnes() {
        assertThatThrownBy(() -> BenchmarkClient.run(new String[] {"benchmark-client", "--thread", "3"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown flag '--thread'").hasMessageContaining("--threads");
        assertThatThrownBy(() -> BenchmarkClient.run(new String[] {"benchmark-client", "--mode", "oneway"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sync|future");
    }

    /**
     * {@link #benchmarkServer} whose queue sheds none of what these closed loops make wait: async mode keeps 160
     * calls in flight on 2 provider threads, and on a loaded machine some wait past the default 1 s for a thread
     * and are shed, as they should be (docs/reliability.md). The scenario tests are about each scenario's calls.
     */
    private static JupiterServer patientBenchmarkServer() {
        String property = JupiterSettings.QUEUE_INTERVAL_MILLIS.property();
        String before = System.getProperty(property);
        System.setProperty(property, "60000");
        try {
            return benchmarkServer();
        } finally {
            if (before == null) {
                System.clearProperty(property);
            } else {
                System.setProperty(property, before);
            }
        }
    }

    /** The server {@code benchmark-server} runs, on 127.0.0.1 and a free port, small enough for a test. */
    private static JupiterServer benchmarkServer(String... extra) {
        String[] argv = new String[] {"benchmark-server", "--host", "127.0.0.1", "--port", "0",
                "--provider-threads", "2", "--io-threads", "1"};
        String[] all = Arrays.copyOf(argv, argv.length + extra.length);
        System.arraycopy(extra, 0, all, argv.length, extra.length);
        return BenchmarkServer.newServer(new Flags(all, 1, Set.of("host", "port", "provider-threads", "io-threads",
                "registry")));
    }

    interface ThrowingRunnable {
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
            original.print(buffer.toString(StandardCharsets.UTF_8)); // a failed run's output says why it failed
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }
}
