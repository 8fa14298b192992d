package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.security.TokenAuthenticator;
import io.jupiter.testkit.Await;
import io.jupiter.transport.TransportConfig;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/JSON over cleartext HTTP/2 (prior knowledge) beside gRPC on one port, called with the machine's curl
 * ({@code --http2-prior-knowledge}: it sends the HTTP/2 preface, so every answer here came over HTTP/2), grpc-java
 * and a raw HTTP/2 peer: the same answers, errors and limits as over HTTP/1.1.
 */
class Http2JsonTest {

    /** The server's body cap, small so that the hostile body is quick to send. */
    private static final int CAP = 256 * 1024;
    private static final String JSON = "Content-Type: application/json";
    private static final int WINDOW_UPDATE = 0x8;
    private static final CountingInterceptor intercepted = new CountingInterceptor();
    private static final NumbersImpl numbers = new NumbersImpl();

    @TempDir
    static Path files;
    private static JupiterServer server;
    private static int port;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().maxBodySize(CAP).build())
                .protocols(HttpProtocols.httpAndGrpc())
                .interceptor(intercepted)
                .build();
        server.register(new CalculatorImpl(), Calculator.class);
        server.register(numbers, Numbers.class);
        server.register(new GreeterImpl(), Greeter.class);
        port = server.start().getPort();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** {@code curl --http2-prior-knowledge}, POSTing {@code body} (unless null) to {@code path} on {@code port}. */
    static Curl.Reply h2(int port, String path, String body, String... headers) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20", "--http2-prior-knowledge",
                "-X", "POST", "-w", "\n%{http_code}"));
        for (String header : headers) {
            command.addAll(List.of("-H", header));
        }
        if (body != null) {
            command.addAll(List.of("--data-binary", body));
        }
        command.add("http://127.0.0.1:" + port + path);
        return Curl.run(command);
    }

    private static Curl.Reply call(String path, String body, String... headers) throws Exception {
        List<String> all = new ArrayList<>(List.of(JSON));
        all.addAll(List.of(headers));
        return h2(port, path, body, all.toArray(String[]::new));
    }

    private static String calculator(String method) {
        return "/" + Calculator.class.getName() + "/" + method;
    }

    @Test
    void aUnaryCallIsAnsweredAsOverHttp1() throws Exception {
        int before = intercepted.seen();
        assertThat(call(calculator("add"), "[2, 3]")).isEqualTo(new Curl.Reply(200, "5", 0));
        assertThat(call(calculator("greet"), "[{\"name\": \"Ada\", \"age\": 36}]").body())
                .isEqualTo("\"Hello, Ada (36)\"");
        assertThat(call(calculator("now"), null).body()).isEqualTo("\"now\"");
        assertThat(call(calculator("add"), "[2, 3]", "Content-Type: application/json; charset=utf-8").body())
                .isEqualTo("5");
        // Through the provider chain: the server's interceptors saw every call.
        assertThat(intercepted.seen() - before).isEqualTo(4);
    }

    @Test
    void refusalsHaveHttp1sStatusesAndJson() throws Exception {
        Curl.Reply noMethod = call(calculator("subtract"), "[1, 2]");
        assertThat(noMethod.status()).isEqualTo(404);
        assertThat(noMethod.body()).contains("\"status\":\"SERVICE_NOT_FOUND\"").contains("no method subtract");

        Curl.Reply badJson = call(calculator("add"), "[1, ");
        assertThat(badJson.status()).isEqualTo(400);
        assertThat(badJson.body()).contains("\"status\":\"BAD_REQUEST\"").contains("not valid JSON");

        Curl.Reply thrown = call(calculator("boom"), "[\"on purpose\"]");
        assertThat(thrown.status()).isEqualTo(500);
        assertThat(thrown.body()).contains("IllegalStateException: on purpose");

        String deep = "[" + "[".repeat(5000) + "]".repeat(5000) + "]";
        Curl.Reply tooDeep = call("/" + Calculator.class.getName() + "/split", deep);
        assertThat(tooDeep.status()).isEqualTo(400);
        assertThat(tooDeep.body()).contains("nesting depth");

        Path big = files.resolve("big.json");
        Files.writeString(big, "[\"" + "x".repeat(CAP) + "\"]");
        Curl.Reply tooBig = call(calculator("split"), "@" + big);
        assertThat(tooBig.status()).isEqualTo(413);
        assertThat(tooBig.body()).contains("\"status\":\"BAD_REQUEST\"").contains(CAP + "-byte cap");

        Curl.Reply get = Curl.run(List.of("curl", "-sS", "--max-time", "20", "--http2-prior-knowledge", "-H", JSON,
                "-w", "\n%{http_code}", "http://127.0.0.1:" + port + calculator("now")));
        assertThat(get.status()).isEqualTo(400);
        assertThat(get.body()).contains("expected: POST");

        Curl.Reply form = h2(port, calculator("add"), "[2, 3]", "Content-Type: text/plain");
        assertThat(form.status()).isEqualTo(415);
        assertThat(form.body()).contains("\"status\":\"BAD_REQUEST\"").contains("content-type text/plain")
                .contains("application/json").contains("application/grpc");
        // The connection-level refusals closed nothing: the port still answers.
        assertThat(call(calculator("add"), "[1, 1]").body()).isEqualTo("2");
    }

    @Test
    void aServerStreamIsReadToItsEnd() throws Exception {
        String numbers = "/" + Numbers.class.getName() + "/upTo";
        Curl.Reply lines = call(numbers, "[1000]"); // past the provider's credit of 16, given back as lines go
        assertThat(lines.status()).isEqualTo(200);
        assertThat(lines.body()).isEqualTo(LongStream.rangeClosed(1, 1000).mapToObj(Long::toString)
                .collect(Collectors.joining("\n", "", "\n")));

        Curl.Reply events = call(numbers, "[2]", "Accept: text/event-stream");
        assertThat(events).isEqualTo(new Curl.Reply(200,
                "data: 1\n\ndata: 2\n\nevent: end\ndata: {\"status\":\"OK\"}\n\n", 0));

        Curl.Reply failed = call("/" + Numbers.class.getName() + "/failAfter", "[2]");
        assertThat(failed.status()).isEqualTo(200);
        assertThat(failed.body().lines().toList()).hasSize(3).startsWith("1", "2");
        assertThat(failed.body()).contains("IllegalStateException: failed after 2");
    }

    /**
     * A client whose HTTP/2 window closes (it reads none of the 4,000 lines of 16 KiB it asked for, its stream
     * window holding four): the provider's credit comes back only as lines pass that window, so the producer is held
     * at its credit (16), its stream buffer (32) and what the window took, not the 4,000.
     */
    @Test
    void aStreamWhoseClientWindowIsClosedHoldsTheProducerBack() throws Exception {
        long before = numbers.texts.get();
        try (RawHttp2Client peer = new RawHttp2Client(port, 4096)) {
            peer.headers(1, jsonHeaders("/" + Numbers.class.getName() + "/text"), false);
            peer.frame(RawHttp2Client.DATA, RawHttp2Client.END_STREAM, 1,
                    "[4000, 16384]".getBytes(StandardCharsets.UTF_8));
            peer.flush();
            Await.until("the stream started", Duration.ofSeconds(30), () -> numbers.texts.get() > before);
            long sent = Counts.awaitStable(numbers.texts) - before;
            System.out.println("HTTP/2 JSON stream, client window closed: lines the producer sent: " + sent);
            assertThat(sent).as("lines the producer sent to a client whose window is closed").isBetween(1L, 100L);
            peer.rstStream(1, 8); // CANCEL: the provider's stream ends
            peer.flush();
        }
    }

    /**
     * One connection carries a JSON call, then a gRPC call, then a JSON call again (a raw HTTP/2 peer: curl 7.88
     * fails to reuse a prior-knowledge connection for a second request, whatever the server); then grpc-java calls
     * the same port.
     */
    @Test
    void grpcStillWorksOnTheSameConnectionAndPort() throws Exception {
        try (RawHttp2Client peer = new RawHttp2Client(port, 0)) {
            peer.headers(1, jsonHeaders(calculator("add")), false);
            peer.frame(RawHttp2Client.DATA, RawHttp2Client.END_STREAM, 1, "[2, 3]".getBytes(StandardCharsets.UTF_8));
            byte[] message = StringValue.of("x").toByteArray();
            byte[] framed = new byte[5 + message.length];
            framed[4] = (byte) message.length;
            System.arraycopy(message, 0, framed, 5, message.length);
            peer.headers(3, RawHttp2Client.grpcHeaders("/" + Greeter.class.getName() + "/sayHello"), false);
            peer.frame(RawHttp2Client.DATA, RawHttp2Client.END_STREAM, 3, framed);
            peer.headers(5, jsonHeaders(calculator("now")), true);
            peer.flush();
            Map<Integer, List<String>> answers = new HashMap<>();
            int ended = 0;
            while (ended < 3) {
                RawHttp2Client.Frame f = peer.read();
                assertThat(f).as("the connection stays open").isNotNull();
                if (f.type() == RawHttp2Client.HEADERS) {
                    answers.computeIfAbsent(f.streamId(), id -> new ArrayList<>()).add(peer.decode(f).toString());
                } else if (f.type() == RawHttp2Client.DATA) {
                    answers.computeIfAbsent(f.streamId(), id -> new ArrayList<>())
                            .add(new String(f.payload(), StandardCharsets.UTF_8));
                }
                if ((f.type() == RawHttp2Client.HEADERS || f.type() == RawHttp2Client.DATA)
                        && (f.flags() & RawHttp2Client.END_STREAM) != 0) {
                    ended++;
                }
            }
            assertThat(answers.get(1)).hasSize(2).last().isEqualTo("5");
            assertThat(answers.get(1).get(0)).contains(":status: 200").contains("application/json");
            assertThat(answers.get(3)).hasSize(3);
            assertThat(answers.get(3).get(0)).contains(":status: 200").contains("application/grpc");
            assertThat(answers.get(3).get(1)).endsWith("Hello, x");
            assertThat(answers.get(3).get(2)).contains("grpc-status: 0");
            assertThat(answers.get(5)).last().isEqualTo("\"now\"");
        }

        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        try {
            assertThat(ClientCalls.blockingUnaryCall(channel, GrpcMethods.SAY_HELLO,
                    CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), StringValue.of("grpc"))
                    .getValue()).isEqualTo("Hello, grpc");
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        assertThat(call(calculator("add"), "[20, 22]").body()).isEqualTo("42");
    }

    @Test
    void aCallerTokenIsCheckedAsOverHttp1() throws Exception {
        try (JupiterServer guarded = JupiterServer.builder().host("127.0.0.1").port(0)
                .protocols(HttpProtocols.httpAndGrpc())
                .tokenAuthenticator(TokenAuthenticator.of(Map.of("token-of-the-shop-0123456789", "shop")))
                .build()) {
            guarded.register(new CalculatorImpl(), Calculator.class);
            int guardedPort = guarded.start().getPort();
            assertThat(h2(guardedPort, calculator("add"), "[2, 3]", JSON,
                    "Authorization: Bearer token-of-the-shop-0123456789")).isEqualTo(new Curl.Reply(200, "5", 0));
            Curl.Reply wrong = h2(guardedPort, calculator("add"), "[2, 3]", JSON,
                    "Authorization: Bearer not-a-token-we-know");
            assertThat(wrong.status()).isEqualTo(401);
            assertThat(wrong.body()).contains("\"status\":\"BAD_REQUEST\"").contains("caller token refused");
            Curl.Reply none = h2(guardedPort, calculator("add"), "[2, 3]", JSON);
            assertThat(none.status()).isEqualTo(401);
            assertThat(none.body()).contains("caller token missing");
        }
    }

    /**
     * A peer that keeps sending a JSON body (no content-length) within its HTTP/2 window: once the connection holds
     * the cap, it is answered {@code 413}, the rest is dropped up to another cap's worth, then its stream is reset
     * and it gets no more window: it cannot send the body whole. The same connection then serves another call.
     */
    @Test
    void aBodyOverTheCapIsRefusedBeforeItIsWhole() throws Exception {
        int frame = 16 * 1024;
        long whole = 8L * CAP;
        try (RawHttp2Client peer = new RawHttp2Client(port, 0)) {
            peer.headers(1, jsonHeaders(calculator("split")), false);
            long sent = 0;
            long sentWhenAnswered = -1;
            long streamWindow = 65_535;
            long connectionWindow = 65_535;
            String answer = null;
            String body = null;
            RawHttp2Client.Frame reset = null;
            while (reset == null && sent < whole) {
                if (streamWindow >= frame && connectionWindow >= frame) {
                    peer.frame(RawHttp2Client.DATA, 0, 1, new byte[frame]);
                    streamWindow -= frame;
                    connectionWindow -= frame;
                    sent += frame;
                    continue;
                }
                peer.flush();
                RawHttp2Client.Frame f = peer.read();
                assertThat(f).as("the connection stays open").isNotNull();
                if (f.type() == WINDOW_UPDATE) {
                    int increment = f.errorCode() & 0x7fffffff;
                    if (f.streamId() == 0) {
                        connectionWindow += increment;
                    } else {
                        streamWindow += increment;
                    }
                } else if (f.type() == RawHttp2Client.SETTINGS && (f.flags() & 1) == 0) {
                    peer.frame(RawHttp2Client.SETTINGS, 1, 0, new byte[0]);
                } else if (f.type() == RawHttp2Client.HEADERS && f.streamId() == 1) {
                    answer = peer.decode(f).status().toString();
                    sentWhenAnswered = sent;
                } else if (f.type() == RawHttp2Client.DATA && f.streamId() == 1) {
                    body = new String(f.payload(), StandardCharsets.UTF_8);
                } else if (f.type() == RawHttp2Client.RST_STREAM && f.streamId() == 1) {
                    reset = f;
                }
            }
            assertThat(answer).as("answered before the whole body was sent").isEqualTo("413");
            assertThat(sentWhenAnswered).isLessThanOrEqualTo(CAP + 65_535L);
            assertThat(body).contains("\"status\":\"BAD_REQUEST\"").contains(CAP + "-byte cap");
            assertThat(reset).as("reset once another cap's worth was dropped").isNotNull();
            assertThat(reset.errorCode()).as("NO_ERROR: stop sending, the answer is complete").isZero();
            assertThat(sent).isLessThanOrEqualTo(2L * CAP + 2 * 65_535L).isLessThan(whole);

            peer.headers(3, jsonHeaders(calculator("now")), true);
            peer.flush();
            RawHttp2Client.Frame next = peer.readUntil(f -> f.type() == RawHttp2Client.HEADERS && f.streamId() == 3);
            assertThat(next).isNotNull();
            assertThat(peer.decode(next).status().toString()).isEqualTo("200");
            RawHttp2Client.Frame now = peer.readUntil(f -> f.type() == RawHttp2Client.DATA && f.streamId() == 3);
            assertThat(new String(now.payload(), StandardCharsets.UTF_8)).isEqualTo("\"now\"");
        }
        assertThat(call(calculator("add"), "[1, 2]").body()).isEqualTo("3");
    }

    private static Http2Headers jsonHeaders(String path) {
        return new DefaultHttp2Headers().method("POST").scheme("http").path(path).authority("127.0.0.1")
                .set("content-type", "application/json");
    }
}
