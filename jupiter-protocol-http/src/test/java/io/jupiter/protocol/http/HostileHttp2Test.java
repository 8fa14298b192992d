package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.metrics.MetricNames;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile HTTP/2 peers against the sniffing port, on real sockets: rapid resets, more streams than allowed, huge
 * header lists, a SETTINGS flood, a client stream sent beyond its window. Each attack ends with its stream refused
 * or its connection closed, nothing of it reaches the provider (but the client stream's first messages), and a
 * grpc-java client on another connection is served throughout.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostileHttp2Test {

    private static final String SAY_HELLO = "/" + Greeter.class.getName() + "/sayHello";
    private static final String STALL = "/" + Tally.class.getName() + "/stall";
    private static final String BLOB = "/" + Blobs.class.getName() + "/blob";
    private static final int REFUSED_STREAM = 0x7;
    private static final int CANCEL = 0x8;

    private final TallyImpl tally = new TallyImpl();
    private JupiterServer server;
    private int port;
    private ManagedChannel bystander;

    @BeforeEach
    void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(new GreeterImpl(), Greeter.class);
        server.register(tally, Tally.class);
        server.register(new BlobsImpl(), Blobs.class);
        port = server.start().getPort();
        bystander = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        assertBystanderServed();
    }

    @AfterEach
    void stop() throws InterruptedException {
        tally.resume.countDown();
        assertBystanderServed();
        bystander.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        server.close();
    }

    private void assertBystanderServed() {
        assertThat(ClientCalls.blockingUnaryCall(bystander, GrpcMethods.SAY_HELLO,
                CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), StringValue.of("bystander"))
                .getValue()).isEqualTo("Hello, bystander");
    }

    private long requestsReceived() {
        return server.metrics().registry().histogram(MetricNames.REQUEST_SIZE).getCount();
    }

    /** CVE-2023-44487: streams opened and reset at once, never counted against the concurrent-stream limit. */
    @Test
    void rapidResetClosesTheConnection() throws IOException {
        long before = requestsReceived();
        try (RawHttp2Client attacker = new RawHttp2Client(port, 0)) {
            int streamId = 1;
            try {
                for (int i = 0; i < 10_000; i++, streamId += 2) {
                    attacker.headers(streamId, RawHttp2Client.grpcHeaders(SAY_HELLO), false);
                    attacker.rstStream(streamId, CANCEL);
                }
                attacker.flush();
            } catch (IOException closedWhileWriting) {
                // the server closed the connection before all of it was written: what is expected
            }
            RawHttp2Client.Frame last = attacker.readUntil(f -> f.type() == RawHttp2Client.GOAWAY);
            if (last != null) {
                assertThat(last.errorCode()).as("GOAWAY's error code").isNotZero();
                assertThat(attacker.readUntil(f -> false)).as("the connection closes after its GOAWAY").isNull();
            }
        }
        assertThat(requestsReceived()).as("requests that reached the provider").isEqualTo(before);
    }

    /**
     * A client stream whose peer sends 100 messages of 16,000 bytes at once, never waiting for window, to a method
     * that reads one and stalls: past its stream's HTTP/2 window (64 KiB, and what the method's reader took, about 40
     * messages) Netty's codec raises a stream error; that call ends RESOURCE_EXHAUSTED saying so and its stream is
     * reset, and the same connection serves the next call. (Each frame the peer still sends on the reset stream is
     * answered with a reset of its own; past 200 in 30 s Netty closes the connection, so a peer that goes on gets
     * its connection closed.)
     */
    @Test
    void aClientStreamSentBeyondItsWindowIsResetAndItsConnectionServesOn() throws Exception {
        try (RawHttp2Client attacker = new RawHttp2Client(port, 0)) {
            attacker.headers(1, RawHttp2Client.grpcHeaders(STALL), false);
            byte[] chunk = grpcMessage(StringValue.of("s".repeat(16_000)).toByteArray());
            for (int i = 0; i < 100; i++) {
                attacker.frame(RawHttp2Client.DATA, 0, 1, chunk);
            }
            attacker.flush();
            RawHttp2Client.Frame trailers = attacker.readUntil(f -> f.streamId() == 1
                    && f.type() == RawHttp2Client.HEADERS || f.type() == RawHttp2Client.GOAWAY);
            assertThat(trailers).as("stream 1's trailers").isNotNull();
            assertThat(trailers.type()).isEqualTo(RawHttp2Client.HEADERS);
            Http2Headers status = attacker.decode(trailers);
            assertThat(status.get("grpc-status")).as("grpc-status").hasToString("8");
            assertThat(status.get("grpc-message")).as("grpc-message").asString().contains("FLOW_CONTROL_ERROR");
            RawHttp2Client.Frame reset = attacker.readUntil(f -> f.streamId() == 1
                    && f.type() == RawHttp2Client.RST_STREAM || f.type() == RawHttp2Client.GOAWAY);
            assertThat(reset).as("the server's answer to stream 1").isNotNull();
            assertThat(reset.type()).isEqualTo(RawHttp2Client.RST_STREAM);

            attacker.headers(3, RawHttp2Client.grpcHeaders(SAY_HELLO), false);
            attacker.frame(RawHttp2Client.DATA, RawHttp2Client.END_STREAM, 3,
                    grpcMessage(StringValue.of("after").toByteArray()));
            attacker.flush();
            RawHttp2Client.Frame answer = attacker.readUntil(f -> f.streamId() == 3
                    && f.type() == RawHttp2Client.DATA || f.type() == RawHttp2Client.GOAWAY);
            assertThat(answer).as("the next call's answer on the same connection").isNotNull();
            assertThat(answer.type()).isEqualTo(RawHttp2Client.DATA);
            assertThat(StringValue.parseFrom(Arrays.copyOfRange(answer.payload(), 5, answer.payload().length))
                    .getValue()).isEqualTo("Hello, after");
        }
    }

    /** A gRPC length-prefixed, uncompressed message. */
    private static byte[] grpcMessage(byte[] message) {
        return ByteBuffer.allocate(5 + message.length).put((byte) 0).putInt(message.length).put(message).array();
    }

    /** At most 100 streams at once: the 101st is refused, the 100 before it are still served. */
    @Test
    void aStreamBeyondTheConcurrentLimitIsRefused() throws IOException {
        try (RawHttp2Client attacker = new RawHttp2Client(port, 0)) {
            int streams = GrpcHandler.MAX_CONCURRENT_STREAMS + 1;
            for (int i = 0; i < streams; i++) {
                attacker.headers(1 + 2 * i, RawHttp2Client.grpcHeaders(SAY_HELLO), false); // held open
            }
            attacker.flush();
            int beyond = 1 + 2 * GrpcHandler.MAX_CONCURRENT_STREAMS;
            RawHttp2Client.Frame refused = attacker.readUntil(f -> f.type() == RawHttp2Client.RST_STREAM
                    || f.type() == RawHttp2Client.GOAWAY);
            assertThat(refused).as("the server's answer to stream %d", beyond).isNotNull();
            assertThat(refused.type()).isEqualTo(RawHttp2Client.RST_STREAM);
            assertThat(refused.streamId()).isEqualTo(beyond);
            assertThat(refused.errorCode()).isEqualTo(REFUSED_STREAM);
        }
    }

    /** A header list far over the 8 KiB cap: refused before any of it is a call. */
    @Test
    void aHugeHeaderListIsRefused() throws Exception {
        long before = requestsReceived();
        try (RawHttp2Client attacker = new RawHttp2Client(port, 0)) {
            attacker.headersInPieces(1, RawHttp2Client.grpcHeaders(SAY_HELLO).set("x-huge", "h".repeat(64 * 1024)));
            attacker.flush();
            RawHttp2Client.Frame answer = attacker.readUntil(f -> f.streamId() == 1
                    || f.type() == RawHttp2Client.GOAWAY);
            if (answer != null && answer.type() == RawHttp2Client.HEADERS) {
                assertThat(attacker.decode(answer).status()).as("the response's :status").hasToString("431");
            } else if (answer != null) {
                assertThat(answer.type()).isIn(RawHttp2Client.RST_STREAM, RawHttp2Client.GOAWAY);
            } // else: the connection was closed
        }
        assertThat(requestsReceived()).as("requests that reached the provider").isEqualTo(before);
    }

    /**
     * A million SETTINGS frames from a peer that reads nothing: each asks for an ACK, which queue once its window
     * is full; Netty's cap on queued control frames closes the connection.
     */
    @Test
    void aSettingsFloodFromAPeerThatDoesNotReadClosesTheConnection() throws IOException {
        try (RawHttp2Client attacker = new RawHttp2Client(port, 4096)) {
            boolean closed = false;
            try {
                for (int i = 0; i < 1_000_000; i++) {
                    attacker.frame(RawHttp2Client.SETTINGS, 0, 0, new byte[0]);
                }
                attacker.flush();
            } catch (IOException e) {
                closed = true; // reset while writing: the server closed the connection
            }
            if (!closed) {
                assertThat(attacker.readUntil(f -> false)).as("the connection closes").isNull();
            }
        }
    }

    /**
     * A PING flood from a peer that reads: the server answers a few, then (gRPC's rule: more than two PINGs within
     * five minutes with nothing sent between) says {@code GOAWAY ENHANCE_YOUR_CALM "too_many_pings"} and closes.
     */
    @Test
    void aPingFloodGetsGoAwayTooManyPings() throws IOException {
        try (RawHttp2Client attacker = new RawHttp2Client(port, 0)) {
            try {
                for (int i = 0; i < 10_000; i++) {
                    attacker.frame(RawHttp2Client.PING, 0, 0, new byte[8]);
                }
                attacker.flush();
            } catch (IOException closedWhileWriting) {
                // the server closed the connection before all of it was written: what is expected
            }
            int[] acks = new int[1];
            RawHttp2Client.Frame goAway = attacker.readUntil(f -> {
                if (f.type() == RawHttp2Client.PING) {
                    acks[0]++;
                }
                return f.type() == RawHttp2Client.GOAWAY;
            });
            assertThat(goAway).as("a GOAWAY before the connection closed").isNotNull();
            assertThat(goAway.errorCode()).as("ENHANCE_YOUR_CALM").isEqualTo(0xb);
            assertThat(new String(goAway.payload(), 8, goAway.payload().length - 8, StandardCharsets.US_ASCII))
                    .isEqualTo("too_many_pings");
            // The codec answers each PING it reads: the accepted one, the strikes, and the one too many.
            assertThat(acks[0]).as("PINGs answered").isEqualTo(PingFloodGuard.MAX_STRIKES + 2);
            assertThat(attacker.readUntil(f -> false)).as("the connection closes after its GOAWAY").isNull();
        }
    }

    /**
     * Window abuse: a peer that never returns window (its connection window stays at 65,535 bytes) while it opens
     * 100 unary calls, each answered with 1 MiB. The answers cannot leave; without a bound the server would hold all
     * 100 MiB of them in the codec's flow controller for as long as the peer keeps the connection open. Once what the
     * connection owes passes the transport's {@code maxPendingWriteBytes} (16 MiB) the connection is closed, as the
     * binary protocol closes a peer that does not read.
     */
    @Test
    void answersOwedToAPeerThatNeverReturnsWindowAreBounded() throws IOException {
        try (RawHttp2Client attacker = new RawHttp2Client(port, 0)) {
            byte[] request = grpcMessage(Int64Value.of(1 << 20).toByteArray());
            try {
                for (int i = 0, streamId = 1; i < 100; i++, streamId += 2) {
                    attacker.headers(streamId, RawHttp2Client.grpcHeaders(BLOB), false);
                    attacker.frame(RawHttp2Client.DATA, RawHttp2Client.END_STREAM, streamId, request);
                }
                attacker.flush();
            } catch (IOException closedWhileWriting) {
                // the server closed the connection before all of it was written: what is expected
            }
            long dataBytes = 0;
            RawHttp2Client.Frame f;
            // Until the server closes the connection; 30 s without a frame fail the test.
            while ((f = attacker.read()) != null) {
                if (f.type() == RawHttp2Client.DATA) {
                    dataBytes += f.payload().length;
                }
            }
            assertThat(dataBytes).as("answer bytes sent within the peer's window").isLessThanOrEqualTo(65_535);
        }
    }

    /**
     * Window abuse: a {@code WINDOW_UPDATE} that would take the connection's window past 2^31-1 is a connection
     * error ({@code FLOW_CONTROL_ERROR}), and one of increment 0 a protocol error: {@code GOAWAY}, then the
     * connection closes.
     */
    @Test
    void aWindowUpdatePastTheMaximumOrOfZeroClosesTheConnection() throws IOException {
        int[][] cases = {{0x7fffffff, 0x3}, {0, 0x1}};
        for (int[] c : cases) {
            try (RawHttp2Client attacker = new RawHttp2Client(port, 0)) {
                attacker.frame(RawHttp2Client.WINDOW_UPDATE, 0, 0, new byte[] {(byte) (c[0] >>> 24),
                        (byte) (c[0] >>> 16), (byte) (c[0] >>> 8), (byte) c[0]});
                attacker.flush();
                RawHttp2Client.Frame goAway = attacker.readUntil(f -> f.type() == RawHttp2Client.GOAWAY);
                assertThat(goAway).as("a GOAWAY for an increment of %d", c[0]).isNotNull();
                assertThat(goAway.errorCode()).as("its error code").isEqualTo(c[1]);
                assertThat(attacker.readUntil(f -> false)).as("the connection closes after its GOAWAY").isNull();
            }
        }
    }
}
