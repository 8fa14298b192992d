package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterServer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** HTTP/JSON server streams as Server-Sent Events ({@code Accept: text/event-stream}), read with curl {@code -N}. */
class HttpSseTest {

    private static final String END = "event: end\ndata: {\"status\":\"OK\"}\n\n";

    private static final NumbersImpl numbers = new NumbersImpl();
    private static JupiterServer server;
    private static int port;
    private static String base;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(numbers, Numbers.class);
        server.register(new CalculatorImpl(), Calculator.class);
        port = server.start().getPort();
        base = "http://127.0.0.1:" + port + "/" + Numbers.class.getName() + "/";
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Curl.Reply events(String url, String body, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "-N", "--max-time", "20",
                "-H", "Content-Type: application/json", "-H", "Accept: text/event-stream",
                "--data-binary", body, "-w", "\n%{http_code}"));
        command.addAll(List.of(more));
        command.add(url);
        return Curl.run(command);
    }

    @Test
    void eachMessageIsAnEventThenTheEnd() throws Exception {
        Curl.Reply reply = events(base + "upTo", "[3]");
        assertThat(reply).isEqualTo(new Curl.Reply(200, "data: 1\n\ndata: 2\n\ndata: 3\n\n" + END, 0));
        Curl.Reply many = events(base + "upTo", "[1000]");
        assertThat(many.body()).isEqualTo(LongStream.rangeClosed(1, 1000).mapToObj(n -> "data: " + n + "\n\n")
                .collect(Collectors.joining()) + END);
        assertThat(events(base + "upTo", "[0]")).isEqualTo(new Curl.Reply(200, END, 0));

        Curl.Reply head = events(base + "upTo", "[1]", "-D", "-");
        assertThat(head.body()).containsIgnoringCase("content-type: text/event-stream")
                .containsIgnoringCase("transfer-encoding: chunked").endsWith("data: 1\n\n" + END);
    }

    @Test
    void aStringWithLineBreaksStaysOneDataLine() throws Exception {
        Curl.Reply reply = events(base + "repeat", "[\"a\\nb\\r\\n\\nc\", 2]");
        assertThat(reply).isEqualTo(new Curl.Reply(200, "data: \"a\\nb\\r\\n\\nc\"\n\n".repeat(2) + END, 0));
    }

    @Test
    void aFailureAfterTheFirstEventIsAnErrorEventAndBeforeItTheResponse() throws Exception {
        Curl.Reply reply = events(base + "failAfter", "[2]");
        assertThat(reply.status()).isEqualTo(200);
        String[] events = reply.body().split("\n\n");
        assertThat(events).hasSize(3).startsWith("data: 1", "data: 2");
        assertThat(events[2]).startsWith("event: error\ndata: {").contains("\"status\":\"SERVICE_UNEXPECTED_ERROR\"")
                .contains("IllegalStateException: failed after 2");

        Curl.Reply refused = events(base + "failAfter", "[0]");
        assertThat(refused.status()).isEqualTo(500);
        assertThat(refused.body()).contains("\"status\":\"SERVICE_UNEXPECTED_ERROR\"");
    }

    @Test
    void aPlainCallAskingForEventsGetsItsJson() throws Exception {
        Curl.Reply reply = events("http://127.0.0.1:" + port + "/" + Calculator.class.getName() + "/add", "[2, 3]");
        assertThat(reply).isEqualTo(new Curl.Reply(200, "5", 0));
    }

    /**
     * A client that asks for events and reads nothing (receive buffer 4 KiB): as with NDJSON, the events go only as
     * the socket takes them, so the producer is held at what the kernel's buffers, the credit (16) and the
     * provider's stream buffer (32) take; far from the 4,000 it would send.
     */
    @Test
    void aClientThatDoesNotReadHoldsTheProducerBack() throws Exception {
        assertThat(SlowHttpReader.producedWhileNotReading(port, "/" + Numbers.class.getName() + "/text",
                "Accept: text/event-stream\r\n", "[4000, 16384]", numbers.texts))
                .as("events the producer sent to a client that reads none").isBetween(1L, 1000L);
    }
}
