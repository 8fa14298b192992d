package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterServer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An HTTP/JSON call's deadline ({@code Jupiter-Timeout-Ms}) and attachments ({@code Jupiter-Attachment-*}), sent by
 * the machine's curl over HTTP/1.1 and over HTTP/2 (prior knowledge).
 */
class HttpJsonMetadataTest {

    private static final String SERVICE = "/" + Calculator.class.getName() + "/";

    private static JupiterServer server;
    private static int port;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(new CalculatorImpl(), Calculator.class);
        port = server.start().getPort();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** {@code curl -X POST} of {@code body} to the method, with {@code headers}; HTTP/2 with prior knowledge. */
    private static Curl.Reply post(boolean http2, String method, String body, String... headers) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20", "-X", "POST",
                "-H", "Content-Type: application/json", "-w", "\n%{http_code}", "--data-binary", body));
        if (http2) {
            command.add("--http2-prior-knowledge");
        }
        for (String header : headers) {
            command.addAll(List.of("-H", header));
        }
        command.add("http://127.0.0.1:" + port + SERVICE + method);
        return Curl.run(command);
    }

    @Test
    void attachmentsAndTheDeadlineReachTheMethod() throws Exception {
        for (boolean http2 : new boolean[] {false, true}) {
            assertThat(post(http2, "attachment", "[\"tenant\"]", "Jupiter-Attachment-Tenant: acme"))
                    .isEqualTo(new Curl.Reply(200, "\"acme\"", 0));
            assertThat(post(http2, "attachment", "[\"user-agent\"]").body()).isEqualTo("null"); // other headers stay
            Curl.Reply left = post(http2, "sleep", "[0]", "Jupiter-Timeout-Ms: 5000");
            assertThat(left.status()).isEqualTo(200);
            assertThat(Long.parseLong(left.body())).isBetween(1L, 5_000L);
            assertThat(Long.parseLong(post(http2, "sleep", "[0]").body())).isEqualTo(Long.MAX_VALUE); // no deadline
        }
    }

    /** The method sleeps 3 s against a 300 ms deadline: the caller gets 504 at the deadline; the port serves on. */
    @Test
    void aCallStillRunningAtItsDeadlineIsAnswered504() throws Exception {
        for (boolean http2 : new boolean[] {false, true}) {
            Curl.Reply late = post(http2, "sleep", "[3000]", "Jupiter-Timeout-Ms: 300");
            assertThat(late.status()).isEqualTo(504);
            assertThat(late.body()).contains("\"status\":\"SERVER_TIMEOUT\"").contains("deadline of 300 ms exceeded");
            assertThat(post(http2, "attachment", "[\"tenant\"]", "Jupiter-Attachment-Tenant: next").body())
                    .isEqualTo("\"next\"");
        }
    }

    @Test
    void aTimeoutThatIsNoNumberOrAFrameworkKeyIsRefused400() throws Exception {
        for (boolean http2 : new boolean[] {false, true}) {
            Curl.Reply soon = post(http2, "sleep", "[0]", "Jupiter-Timeout-Ms: soon");
            assertThat(soon.status()).isEqualTo(400);
            assertThat(soon.body()).contains("jupiter-timeout-ms: soon (expected: a whole number of milliseconds");
            Curl.Reply zero = post(http2, "sleep", "[0]", "Jupiter-Timeout-Ms: 0");
            assertThat(zero.status()).isEqualTo(400);
            Curl.Reply forged = post(http2, "sleep", "[0]", "Jupiter-Attachment-jupiter.timeout: 1");
            assertThat(forged.status()).isEqualTo(400);
            assertThat(forged.body()).contains("keys starting with jupiter. are the framework's");
        }
    }
}
