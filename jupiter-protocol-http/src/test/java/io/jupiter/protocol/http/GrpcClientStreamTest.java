package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * gRPC client and bidirectional streaming with grpc-java's own client, onto Jupiter's client and bidirectional
 * streams ({@code Flow.Publisher} parameters of protobuf messages): the messages reach the method as it reads them,
 * a client that outruns the method is held back by HTTP/2 flow control, and the client's cancel and deadline reach
 * the method's reader.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrpcClientStreamTest {

    /** Messages of 16 KiB: four fill an HTTP/2 stream window. */
    private static final int CHUNK_BYTES = 16 * 1024;
    private static final int CHUNKS = 1_000;

    private static final MethodDescriptor<Int64Value, Int64Value> SUM = method(
            MethodDescriptor.MethodType.CLIENT_STREAMING, "sum", Int64Value.parser(), Int64Value.parser());
    private static final MethodDescriptor<StringValue, StringValue> ECHO = method(
            MethodDescriptor.MethodType.BIDI_STREAMING, "echo", StringValue.parser(), StringValue.parser());
    private static final MethodDescriptor<StringValue, Int64Value> STALL = method(
            MethodDescriptor.MethodType.CLIENT_STREAMING, "stall", StringValue.parser(), Int64Value.parser());
    private static final MethodDescriptor<Int64Value, Int64Value> REJECT = method(
            MethodDescriptor.MethodType.CLIENT_STREAMING, "reject", Int64Value.parser(), Int64Value.parser());
    private static final MethodDescriptor<StringValue, Int64Value> COUNT = method(
            MethodDescriptor.MethodType.CLIENT_STREAMING, "count", StringValue.parser(), Int64Value.parser());

    static <Q extends Message, R extends Message> MethodDescriptor<Q, R> method(
            MethodDescriptor.MethodType type, String name, Parser<Q> request, Parser<R> response) {
        return MethodDescriptor.<Q, R>newBuilder()
                .setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(Tally.class.getName(), name))
                .setRequestMarshaller(new ProtoMarshaller<>(request))
                .setResponseMarshaller(new ProtoMarshaller<>(response))
                .build();
    }

    private final TallyImpl tally = new TallyImpl();
    private JupiterServer server;
    private ManagedChannel channel;

    @BeforeEach
    void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(tally, Tally.class);
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.start().getPort()).usePlaintext().build();
    }

    @AfterEach
    void stop() throws InterruptedException {
        tally.resume.countDown();
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        server.close();
    }

    @Test
    void aClientStreamIsSummed() throws Exception {
        Received<Int64Value> answer = new Received<>();
        StreamObserver<Int64Value> numbers = ClientCalls.asyncClientStreamingCall(
                channel.newCall(SUM, CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS)), answer);
        for (long i = 1; i <= 100; i++) {
            numbers.onNext(Int64Value.of(i));
        }
        numbers.onCompleted();
        assertThat(answer.closed.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
        assertThat(answer.messages).containsExactly(Int64Value.of(5050));

        // No message at all: the method reads an empty stream; the connection serves on.
        Received<Int64Value> empty = new Received<>();
        ClientCalls.asyncClientStreamingCall(channel.newCall(SUM, CallOptions.DEFAULT), empty).onCompleted();
        assertThat(empty.closed.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
        assertThat(empty.messages).containsExactly(Int64Value.of(0));
    }

    @Test
    void theMethodsExceptionEndsTheCallUnknownWithItsMessage() throws Exception {
        Received<Int64Value> answer = new Received<>();
        StreamObserver<Int64Value> numbers = ClientCalls.asyncClientStreamingCall(
                channel.newCall(REJECT, CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS)), answer);
        numbers.onNext(Int64Value.of(7));
        numbers.onNext(Int64Value.of(8));
        Status status = answer.closed.get(30, TimeUnit.SECONDS);
        assertThat(status.getCode()).isEqualTo(Status.Code.UNKNOWN);
        assertThat(status.getDescription()).contains("IllegalArgumentException: rejected 7");
        assertThat(answer.messages).isEmpty();
    }

    /** The provider's chain serves these streams: its Authorizer refuses one, its interceptors see the other. */
    @Test
    void theServersAuthorizerAndInterceptorsSeeTheStreams() throws Exception {
        AtomicLong streamsIntercepted = new AtomicLong();
        try (JupiterServer guarded = JupiterServer.builder().host("127.0.0.1").port(0)
                .protocols(HttpProtocols.httpAndGrpc())
                .authorizer((caller, service, method) -> !method.equals("echo"))
                .interceptor(new Interceptor() {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                        if (invocation.isStream()) {
                            streamsIntercepted.incrementAndGet();
                        }
                    }
                })
                .build()) {
            guarded.register(new TallyImpl(), Tally.class);
            ManagedChannel other = NettyChannelBuilder.forAddress("127.0.0.1", guarded.start().getPort())
                    .usePlaintext().build();
            try {
                Received<StringValue> refused = new Received<>();
                ClientCalls.asyncBidiStreamingCall(other.newCall(ECHO, CallOptions.DEFAULT), refused)
                        .onNext(StringValue.of("let me in"));
                Status status = refused.closed.get(30, TimeUnit.SECONDS);
                assertThat(status.getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
                assertThat(status.getDescription()).contains("not authorized");

                Received<Int64Value> answer = new Received<>();
                StreamObserver<Int64Value> numbers = ClientCalls.asyncClientStreamingCall(
                        other.newCall(SUM, CallOptions.DEFAULT), answer);
                numbers.onNext(Int64Value.of(2));
                numbers.onCompleted();
                assertThat(answer.closed.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
                assertThat(answer.messages).containsExactly(Int64Value.of(2));
                assertThat(streamsIntercepted).as("streams the interceptor saw").hasValue(1);
            } finally {
                other.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aBidirectionalStreamEchoesEachLine() throws Exception {
        Received<StringValue> replies = new Received<>();
        StreamObserver<StringValue> lines = ClientCalls.asyncBidiStreamingCall(
                channel.newCall(ECHO, CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS)), replies);
        lines.onNext(StringValue.of("line 0"));
        Await.until("the first line echoed before the client sent the next", Duration.ofSeconds(30),
                () -> replies.messages.size() == 1);
        for (int i = 1; i < 50; i++) {
            lines.onNext(StringValue.of("line " + i));
        }
        lines.onCompleted();
        assertThat(replies.closed.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
        assertThat(replies.messages).hasSize(50);
        for (int i = 0; i < 50; i++) {
            assertThat(replies.messages.get(i).getValue()).isEqualTo("line " + i);
        }
    }

    /**
     * A client that sends 1,000 messages of 16 KiB (16 MiB) as fast as its transport takes them, to a method that
     * reads one and stalls: HTTP/2 window comes back only as the method's reader asks, so the client is held after
     * what the provider holds (its inbound window, 32 messages, the one the method read, one stream window of 64 KiB
     * and one message at the gRPC handler) and grpc-java's own 32 KiB of ready bytes; nothing near the 1,000.
     * Resumed, the method reads every message.
     */
    @Test
    void aClientThatOutrunsASlowMethodIsHeldBackByTheWindow() throws Exception {
        StringValue chunk = StringValue.of("c".repeat(CHUNK_BYTES));
        AtomicLong sent = new AtomicLong();
        CompletableFuture<Status> closed = new CompletableFuture<>();
        List<Int64Value> answer = new CopyOnWriteArrayList<>();
        ClientCall<StringValue, Int64Value> call = channel.newCall(STALL, CallOptions.DEFAULT);
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onReady() {
                while (call.isReady() && sent.get() < CHUNKS) {
                    call.sendMessage(chunk);
                    if (sent.incrementAndGet() == CHUNKS) {
                        call.halfClose();
                    }
                }
            }

            @Override
            public void onMessage(Int64Value message) {
                answer.add(message);
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
                closed.complete(status);
            }
        }, new Metadata());
        call.request(1);

        assertThat(tally.stalled.await(30, TimeUnit.SECONDS)).as("the method read its first message").isTrue();
        long held = Counts.awaitStable(sent);
        System.out.println("client stream: messages of 16 KiB the client could send while the method stalled: "
                + held);
        // 32 (inbound window) + 32 (the iterator's prefetch, read ahead) + 1 + 4 (stream window) + 1 (at the handler)
        // + 2 (grpc-java's ready bytes): 72 at most; without the window tied to the reader, all 1,000.
        assertThat(held).as("messages sent while the method stalled").isBetween(2L, 100L);
        assertThat(closed).isNotDone();

        tally.resume.countDown();
        assertThat(closed.get(60, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
        assertThat(answer).containsExactly(Int64Value.of(CHUNKS));
    }

    @Test
    void theClientsCancelMidStreamReachesTheMethodsReader() throws Exception {
        CompletableFuture<Status> closed = new CompletableFuture<>();
        ClientCall<StringValue, Int64Value> call = channel.newCall(COUNT, CallOptions.DEFAULT);
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onClose(Status status, Metadata trailers) {
                closed.complete(status);
            }
        }, new Metadata());
        call.request(1);
        for (int i = 0; i < 3; i++) {
            call.sendMessage(StringValue.of("m" + i));
        }
        Await.until("the method read three messages", Duration.ofSeconds(30), () -> tally.counted.get() == 3);
        call.cancel("enough", null);
        assertThat(tally.countEnded.get(30, TimeUnit.SECONDS)).as("how the method's reading ended")
                .isEqualTo(StatusTable.STREAM_CANCELLED.status());
        assertThat(closed.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.CANCELLED);
    }

    @Test
    void aDeadlineEndsTheStreamDeadlineExceededAndReachesTheMethod() throws Exception {
        Received<Int64Value> answer = new Received<>();
        StreamObserver<StringValue> chunks = ClientCalls.asyncClientStreamingCall(
                channel.newCall(COUNT, CallOptions.DEFAULT.withDeadlineAfter(500, TimeUnit.MILLISECONDS)), answer);
        chunks.onNext(StringValue.of("one"));
        // The client never half-closes: only the deadline ends the call.
        assertThat(answer.closed.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
        assertThat(tally.countEnded.get(30, TimeUnit.SECONDS)).as("how the method's reading ended")
                .isIn(StatusTable.STREAM_CANCELLED.status(), StatusTable.SERVER_TIMEOUT.status());
        assertThat(tally.counted).hasValue(1);
    }
}
