package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.internal.StatusTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Node client, {@code @grpc/grpc-js} from the npm registry, against a Jupiter server on 127.0.0.1. The set-up
 * installs the package into {@code target/node} once (npm's own client, two minutes at most); the test is skipped,
 * saying why, when node or npm is missing or npm cannot reach the registry.
 */
class NodeGrpcClientTest {

    private static final Path NODE_DIR = Path.of("target", "node");
    private static final Path SCRIPTS = Path.of("src", "test", "node");

    @BeforeAll
    static void installGrpcJs() throws Exception {
        Assumptions.assumeTrue(run(List.of("node", "--version"), Path.of("."), 30).exitCode == 0,
                "skipped: node is not installed");
        if (Files.isDirectory(NODE_DIR.resolve("node_modules").resolve("@grpc").resolve("grpc-js"))) {
            return;
        }
        Files.createDirectories(NODE_DIR);
        Result install = run(List.of("npm", "install", "--no-audit", "--no-fund", "--prefix", ".",
                "@grpc/grpc-js@1"), NODE_DIR, 120);
        Assumptions.assumeTrue(install.exitCode == 0, () -> "skipped: npm could not install @grpc/grpc-js from the "
                + "registry (offline?): " + install.output.lines().reduce((a, b) -> b).orElse(""));
    }

    @Test
    void grpcJsCallsUnaryMethodsWithMetadataErrorsAndDeadlinesAndAClientStream() throws Exception {
        Path script = script("unary-client.js");
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .protocols(HttpProtocols.httpAndGrpc()).build()) {
            server.register(new GreeterImpl(), Greeter.class);
            server.register(new TallyImpl(), Tally.class);
            int port = server.start().getPort();
            Result client = run(List.of("node", script.getFileName().toString(), "127.0.0.1:" + port,
                    Greeter.class.getName(), Tally.class.getName()), NODE_DIR, 60);
            assertThat(client.exitCode).as(client.output).isZero();
            List<String> lines = client.output.lines().filter(l -> l.startsWith("{")).toList();
            assertThat(lines).hasSize(5);
            assertThat(lines.get(0)).isEqualTo("{\"reply\":\"Hello, Node of acme\"}");
            assertThat(lines.get(1)).startsWith("{\"code\":2,").contains("IllegalArgumentException: from node");
            assertThat(lines.get(2)).startsWith("{\"code\":4,"); // DEADLINE_EXCEEDED
            assertThat(lines.get(3)).isEqualTo("{\"reply\":6}"); // client streaming: 1 + 2 + 3
            // From a client that compresses with gzip: "Hello, " and the 100 characters sent.
            assertThat(lines.get(4)).isEqualTo("{\"reply\":\"107 chars, Hello, gzip\"}");
        }
    }

    /**
     * Server-streaming and bidirectional calls from Node: a stream read to its end, a bidirectional echo, a deadline
     * on a stream the client never half-closes ({@code DEADLINE_EXCEEDED}), and a server stream the client cancels
     * after three messages ({@code CANCELLED}), whose producer at the provider then stops ({@code STREAM_CANCELLED}).
     */
    @Test
    void grpcJsMakesServerAndBidirectionalStreamCallsWithADeadlineAndACancellation() throws Exception {
        Path script = script("streams-client.js");
        TickerImpl ticker = new TickerImpl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .protocols(HttpProtocols.httpAndGrpc()).build()) {
            server.register(ticker, Ticker.class);
            server.register(new TallyImpl(), Tally.class);
            int port = server.start().getPort();
            Result client = run(List.of("node", script.getFileName().toString(), "127.0.0.1:" + port,
                    Ticker.class.getName(), Tally.class.getName()), NODE_DIR, 60);
            assertThat(client.exitCode).as(client.output).isZero();
            List<String> lines = client.output.lines().filter(l -> l.startsWith("{")).toList();
            assertThat(lines).as(client.output).hasSize(4);
            assertThat(lines.get(0)).isEqualTo("{\"messages\":[1,2,3,4,5],\"code\":0,\"details\":\"\"}");
            assertThat(lines.get(1)).isEqualTo("{\"messages\":[\"a\",\"b\",\"c\"],\"code\":0,\"details\":\"\"}");
            assertThat(lines.get(2)).startsWith("{\"messages\":[\"still here\"],\"code\":4,"); // DEADLINE_EXCEEDED
            assertThat(lines.get(3)).matches("\\{\"messages\":\\d+,\"code\":1,.*"); // CANCELLED
            assertThat(Integer.parseInt(lines.get(3).replaceAll("\\{\"messages\":(\\d+),.*", "$1")))
                    .isBetween(3, 1000);
            assertThat(ticker.floodEnded.get(30, TimeUnit.SECONDS)).as("how the cancelled producer ended")
                    .isEqualTo(StatusTable.STREAM_CANCELLED.status());
            assertThat(ticker.flooded.get()).isLessThan(1_000_000);
        }
    }

    /** A copy of a script beside node_modules (Node resolves require() from the script's own directory). */
    private static Path script(String name) throws IOException {
        Files.copy(SCRIPTS.resolve("protobuf-wire.js"), NODE_DIR.resolve("protobuf-wire.js"),
                StandardCopyOption.REPLACE_EXISTING);
        return Files.copy(SCRIPTS.resolve(name), NODE_DIR.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }

    private record Result(int exitCode, String output) {
    }

    private static Result run(List<String> command, Path dir, int timeoutSeconds) throws InterruptedException {
        try {
            Path output = Files.createTempFile("jupiter-node", ".out");
            try {
                Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                        .redirectOutput(output.toFile()).start();
                process.getOutputStream().close();
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    return new Result(-1, command.get(0) + " did not finish in " + timeoutSeconds + " s");
                }
                return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            return new Result(-1, e.toString());
        }
    }
}
