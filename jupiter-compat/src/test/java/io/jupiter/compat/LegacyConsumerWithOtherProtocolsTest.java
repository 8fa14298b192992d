package io.jupiter.compat;

import static org.assertj.core.api.Assertions.assertThat;

import compat.model.Values;
import io.jupiter.protocol.http.HttpProtocols;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The real Jupiter 1.3.1 consumer (its own JVM, its own jars) against a provider that also serves HTTP/JSON and gRPC
 * on the same port (docs/protocols.md): every value case still comes back equal, over protostuff and Hessian, while
 * an HTTP client calls the same port.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LegacyConsumerWithOtherProtocolsTest {

    private JupiterServer server;
    private LegacyJvm consumer;

    @BeforeAll
    void start() throws Exception {
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .serializers(SerializerType.PROTOSTUFF, SerializerType.HESSIAN)
                .protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(new CompatServiceImpl());
        server.start();
        consumer = LegacyJvm.start("LegacyConsumer");
    }

    @AfterAll
    void stop() throws Exception {
        if (consumer != null) {
            consumer.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void a131ConsumerSeesNothingNewWithTheOtherProtocolsOn() throws Exception {
        for (String serializer : List.of("protostuff", "hessian")) {
            Map<String, String> outcomes = new HashMap<>();
            String command = "values " + (serializer.equals("protostuff") ? "PROTO_STUFF" : "HESSIAN") + " "
                    + server.localAddress().getPort() + " 2";
            for (String line : consumer.command(command, 120)) {
                if (line.startsWith("case ")) {
                    String[] parts = line.split(" ", 3);
                    outcomes.put(parts[1], parts.length > 2 ? parts[2] : "");
                }
            }
            for (String method : Values.cases().keySet()) {
                if (Values.supported(serializer, method)) {
                    assertThat(outcomes).as(serializer + " " + method).containsEntry(method, "PASS");
                }
            }
        }
        // And the same port answers HTTP meanwhile.
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> missing = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.localAddress().getPort() + "/no.such.Service/m")).timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString("[]")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("SERVICE_NOT_FOUND");
    }
}
