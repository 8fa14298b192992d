package io.jupiter.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.example.benchmark.BenchmarkClient;
import io.jupiter.example.benchmark.BenchmarkServiceImpl;
import io.jupiter.example.benchmark.RawEchoClient;
import io.jupiter.example.benchmark.RawEchoServer;
import io.jupiter.example.demo.Demo;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

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

    @Test
    void rawEchoClientReportsQpsAgainstTheRawEchoServer() throws Exception {
        TransportConfig config = TransportConfig.builder().threadNamePrefix("raw-echo-test").ioThreads(1).build();
        try (Acceptor echo = TransportFactory.load().newAcceptor(config, new InetSocketAddress("127.0.0.1", 0),
                new RawEchoServer.EchoHandler())) {
            int port = echo.start().getPort();
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
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
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
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        original.print(out);
        return out;
    }
}
