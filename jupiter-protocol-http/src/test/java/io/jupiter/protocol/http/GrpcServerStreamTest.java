package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Int64Value;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.stream.StreamIterator;
import io.jupiter.rpc.stream.StreamOptions;
import io.jupiter.rpc.stream.Streams;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * gRPC server streaming with grpc-java's own client, onto a Jupiter server stream ({@code Flow.Publisher} of
 * protobuf messages): messages in order, the end's status, the method's error, and flow control from the client's
 * HTTP/2 window back to the provider's producer.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrpcServerStreamTest {

    /** The client's HTTP/2 window, fixed (no automatic growth): four flood messages. */
    private static final int CLIENT_WINDOW = 64 * 1024;

    private static final MethodDescriptor<Int64Value, Int64Value> COUNT = method("count", Int64Value.parser());
    private static final MethodDescriptor<Int64Value, Int64Value> FAIL_AFTER = method("failAfter",
            Int64Value.parser());
    private static final MethodDescriptor<Int64Value, StringValue> FLOOD = method("flood", StringValue.parser());
    private static final MethodDescriptor<Int64Value, StringValue> BULK = method("bulk", StringValue.parser());

    private static <R extends Message> MethodDescriptor<Int64Value, R> method(
            String name, Parser<R> response) {
        return MethodDescriptor.<Int64Value, R>newBuilder()
                .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(Ticker.class.getName(), name))
                .setRequestMarshaller(new ProtoMarshaller<>(Int64Value.parser()))
                .setResponseMarshaller(new ProtoMarshaller<>(response))
                .build();
    }

    private final TickerImpl ticker = new TickerImpl();
    private JupiterServer server;
    private ManagedChannel channel;

    @BeforeEach
    void start() {
        start(JupiterServer.builder());
    }

    private void start(JupiterServer.Builder builder) {
        server = builder.host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(ticker, Ticker.class);
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.start().getPort()).usePlaintext()
                .flowControlWindow(CLIENT_WINDOW).build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        server.close();
    }

    @Test
    void messagesArriveInOrderThenTheEnd() {
        List<Long> received = new ArrayList<>();
        Iterator<Int64Value> it = ClientCalls.blockingServerStreamingCall(channel, COUNT,
                CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), Int64Value.of(100));
        it.forEachRemaining(v -> received.add(v.getValue()));
        assertThat(received).hasSize(100).startsWith(1L, 2L, 3L).endsWith(100L);
        // An empty stream, and the connection serving on.
        assertThat(ClientCalls.blockingServerStreamingCall(channel, COUNT, CallOptions.DEFAULT, Int64Value.of(0))
                .hasNext()).isFalse();
    }

    @Test
    void theMethodsErrorEndsTheStreamAfterItsMessages() {
        Iterator<Int64Value> it = ClientCalls.blockingServerStreamingCall(channel, FAIL_AFTER,
                CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), Int64Value.of(2));
        assertThat(it.next().getValue()).isEqualTo(1);
        assertThat(it.next().getValue()).isEqualTo(2);
        assertThatThrownBy(it::hasNext).isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN);
            assertThat(e.getStatus().getDescription()).contains("failed after 2");
        });
    }

    /**
     * A client that asks for one message and reads no more: its window fills, the server holds at most its stream
     * window in bytes ({@code streamWindowBytes}) written and not on the socket, and the provider's producer waits
     * with its own bounded buffer; nothing near the 2,000 messages it would send. The client's cancel then ends the
     * producer.
     */
    @Test
    void aClientThatStopsReadingHoldsTheProducerBackAndItsCancelEndsIt() throws Exception {
        long held = heldByAClientThatStopsReading(FLOOD, ticker.flooded, ticker.floodEnded);
        assertThat(held * TickerImpl.FLOOD_MESSAGE_BYTES).as("bytes the producer sent while the client read one")
                .isBetween(1L, heldBytesBound(TickerImpl.FLOOD_MESSAGE_BYTES));
    }

    /**
     * The same with messages of 256 KiB: what the server holds for the client stays within its stream window in
     * bytes, not credit times the message size (32 messages of credit, 8 MiB, before the window was counted in
     * bytes).
     */
    @Test
    void aClientThatStopsReadingLargeMessagesHoldsBytesUnderTheStreamWindow() throws Exception {
        long held = heldByAClientThatStopsReading(BULK, ticker.bulked, ticker.bulkEnded);
        assertThat(held * TickerImpl.BULK_MESSAGE_BYTES).as("bytes the producer sent while the client read one")
                .isBetween(1L, heldBytesBound(TickerImpl.BULK_MESSAGE_BYTES));
    }

    /**
     * The server's own stream window ({@code JupiterServer.Builder.streamWindowBytes}, 64 KiB here) bounds what it
     * holds for a gRPC client as it does for a Jupiter consumer: with the 1 MiB default instead, the producer got
     * about 2.1 MB out against this bound's 1.2 MB.
     */
    @Test
    void theServersOwnStreamWindowBoundsWhatItHolds() throws Exception {
        int window = 64 * 1024;
        stop();
        start(JupiterServer.builder().streamWindowBytes(window));
        long held = heldByAClientThatStopsReading(FLOOD, ticker.flooded, ticker.floodEnded);
        assertThat(held * TickerImpl.FLOOD_MESSAGE_BYTES).as("bytes the producer sent while the client read one")
                .isBetween(1L, heldBytesBound(TickerImpl.FLOOD_MESSAGE_BYTES, window));
    }

    /**
     * What a client that read one message may leave on its way: its window, the server's stream window (written, not
     * on the socket), the provider's stream buffer, and a few messages (the one the client read, one past the
     * window, the one in send).
     */
    private static long heldBytesBound(int messageBytes) {
        return heldBytesBound(messageBytes, JupiterSettings.STREAM_WINDOW_BYTES.get());
    }

    private static long heldBytesBound(int messageBytes, long streamWindowBytes) {
        return CLIENT_WINDOW + streamWindowBytes + StreamOptions.DEFAULT_BUFFER_BYTES + 4L * messageBytes;
    }

    /**
     * Calls {@code method} for 2,000 messages, reads one and no more; returns how many the producer sent once it
     * held still, after checking that the client's cancel then ends it.
     */
    private long heldByAClientThatStopsReading(MethodDescriptor<Int64Value, StringValue> method, AtomicLong sent,
                                               CompletableFuture<?> ended)
            throws Exception {
        AtomicInteger delivered = new AtomicInteger();
        AtomicReference<Status> closed = new AtomicReference<>();
        ClientCall<Int64Value, StringValue> call = channel.newCall(method, CallOptions.DEFAULT);
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onMessage(StringValue message) {
                delivered.incrementAndGet();
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
                closed.set(status);
            }
        }, new Metadata());
        call.request(1);
        call.sendMessage(Int64Value.of(2_000));
        call.halfClose();

        Await.until("one message delivered", Duration.ofSeconds(30), () -> delivered.get() == 1
                || closed.get() != null);
        assertThat(closed.get()).as("the call's end").isNull();
        long held = Counts.awaitStable(sent);
        assertThat(ended).isNotDone();

        call.cancel("enough", null);
        assertThat(ended.get(30, TimeUnit.SECONDS)).as("how the producer ended")
                .isEqualTo(StatusTable.STREAM_CANCELLED.status());
        return held;
    }

    /**
     * A Jupiter consumer reads the same stream over 1.3.1's frames on the same port: the provider's streams
     * announcement, held while the connection's protocol was not known, reached it.
     */
    @Test
    void aJupiterConsumerReadsTheSameStreamOnTheSamePort() {
        try (JupiterClient client = JupiterClient.builder().build();
             StreamIterator<Int64Value> it = Streams.iterate(client.proxy(Ticker.class)
                     .address("127.0.0.1", server.localAddress().getPort()).timeoutMillis(10_000).build()
                     .count(Int64Value.of(3)))) {
            List<Long> received = new ArrayList<>();
            it.forEachRemaining(v -> received.add(v.getValue()));
            assertThat(received).containsExactly(1L, 2L, 3L);
        }
    }
}
