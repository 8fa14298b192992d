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

/**
 * HTTP/JSON server streams as newline-delimited JSON and, with {@code Accept: text/event-stream}, as Server-Sent
 * Events, read with the machine's own curl ({@code -N}) and by a raw client that reads nothing.
 */
class HttpJsonStreamTest {

    private static final String END = "event: end\ndata: {\"status\":\"OK\"}\n\n";

    private static final NumbersImpl numbers = new NumbersImpl();
    private static JupiterServer server;
    private static int port;
    private static String base;
    private static String numbersUrl;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(numbers, Numbers.class);
        server.register(new CalculatorImpl(), Calculator.class);
        port = server.start().getPort();
        base = "http://127.0.0.1:" + port + "/";
        numbersUrl = base + Numbers.class.getName() + "/";
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aServerStreamIsOneJsonLinePerMessage() throws Exception {
        Curl.Reply reply = Curl.post(base + Numbers.class.getName() + "/upTo", "[3]");
        assertThat(reply).isEqualTo(new Curl.Reply(200, "1\n2\n3\n", 0));
        // Past the credit of 16 at the provider: given back as lines are written.
        Curl.Reply many = Curl.post(base + Numbers.class.getName() + "/upTo", "[1000]");
        assertThat(many.status()).isEqualTo(200);
        assertThat(many.body()).isEqualTo(LongStream.rangeClosed(1, 1000).mapToObj(Long::toString)
                .collect(Collectors.joining("\n", "", "\n")));
        assertThat(Curl.post(base + Numbers.class.getName() + "/upTo", "[0]")).isEqualTo(new Curl.Reply(200, "", 0));
    }

    @Test
    void anErrorAfterTheFirstLineIsTheLastLineAndBeforeItTheResponse() throws Exception {
        Curl.Reply reply = Curl.post(base + Numbers.class.getName() + "/failAfter", "[2]");
        assertThat(reply.status()).isEqualTo(200);
        List<String> lines = reply.body().lines().toList();
        assertThat(lines).hasSize(3).startsWith("1", "2");
        assertThat(lines.get(2)).contains("\"status\":\"SERVICE_UNEXPECTED_ERROR\"")
                .contains("IllegalStateException: failed after 2");

        Curl.Reply refused = Curl.post(base + Numbers.class.getName() + "/failAfter", "[0]");
        assertThat(refused.status()).isEqualTo(500);
        assertThat(refused.body()).contains("\"status\":\"SERVICE_UNEXPECTED_ERROR\"");
    }

    /** curl's keep-alive connection carries a stream, then a plain call, in order. */
    @Test
    void aCallAfterAStreamOnTheSameConnection() throws Exception {
        Curl.Reply replies = Curl.run(List.of("curl", "-sS", "--max-time", "20",
                "-H", "Content-Type: application/json", "--data-binary", "[2]",
                base + Numbers.class.getName() + "/upTo", "--next",
                "-H", "Content-Type: application/json", "--data-binary", "[2, 3]",
                base + Calculator.class.getName() + "/add", "-w", "\n%{http_code}"));
        assertThat(replies.body()).isEqualTo("1\n2\n5");
        assertThat(replies.status()).isEqualTo(200);
    }

    /**
     * A client that sends its request and reads nothing (receive buffer 4 KiB): the lines go only as the socket
     * takes them, so the producer is held at what the kernel's buffers take (the send buffer grows to 4 MiB here:
     * 256 lines of 16 KiB), the 16 of the credit and the provider's buffer of 32; far from the 4,000 it would send.
     */
    @Test
    void aClientThatDoesNotReadHoldsTheProducerBack() throws Exception {
        assertThat(SlowHttpReader.producedWhileNotReading(port, "/" + Numbers.class.getName() + "/text",
                "", "[4000, 16384]", numbers.texts))
                .as("lines the producer sent to a client that reads none").isBetween(1L, 1000L);
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
    void withAcceptEventStreamEachMessageIsAnEventThenTheEnd() throws Exception {
        Curl.Reply reply = events(numbersUrl + "upTo", "[3]");
        assertThat(reply).isEqualTo(new Curl.Reply(200, "data: 1\n\ndata: 2\n\ndata: 3\n\n" + END, 0));
        Curl.Reply many = events(numbersUrl + "upTo", "[1000]");
        assertThat(many.body()).isEqualTo(LongStream.rangeClosed(1, 1000).mapToObj(n -> "data: " + n + "\n\n")
                .collect(Collectors.joining()) + END);
        assertThat(events(numbersUrl + "upTo", "[0]")).isEqualTo(new Curl.Reply(200, END, 0));

        Curl.Reply head = events(numbersUrl + "upTo", "[1]", "-D", "-");
        assertThat(head.body()).containsIgnoringCase("content-type: text/event-stream")
                .containsIgnoringCase("transfer-encoding: chunked").endsWith("data: 1\n\n" + END);
    }

    @Test
    void aStringWithLineBreaksStaysOneDataLine() throws Exception {
        Curl.Reply reply = events(numbersUrl + "repeat", "[\"a\\nb\\r\\n\\nc\", 2]");
        assertThat(reply).isEqualTo(new Curl.Reply(200, "data: \"a\\nb\\r\\n\\nc\"\n\n".repeat(2) + END, 0));
    }

    @Test
    void anEventStreamFailureAfterTheFirstEventIsAnErrorEventAndBeforeItTheResponse() throws Exception {
        Curl.Reply reply = events(numbersUrl + "failAfter", "[2]");
        assertThat(reply.status()).isEqualTo(200);
        String[] events = reply.body().split("\n\n");
        assertThat(events).hasSize(3).startsWith("data: 1", "data: 2");
        assertThat(events[2]).startsWith("event: error\ndata: {").contains("\"status\":\"SERVICE_UNEXPECTED_ERROR\"")
                .contains("IllegalStateException: failed after 2");

        Curl.Reply refused = events(numbersUrl + "failAfter", "[0]");
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
    void aClientThatAsksForEventsAndDoesNotReadHoldsTheProducerBack() throws Exception {
        assertThat(SlowHttpReader.producedWhileNotReading(port, "/" + Numbers.class.getName() + "/text",
                "Accept: text/event-stream\r\n", "[4000, 16384]", numbers.texts))
                .as("events the producer sent to a client that reads none").isBetween(1L, 1000L);
    }
}
