package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.transport.TransportConfig;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A gRPC request message over the body cap, of a unary call or a client stream, is refused with RESOURCE_EXHAUSTED;
 * the connection serves on.
 */
class GrpcLimitsTest {

    private static final int CAP = 64 * 1024;

    private static final MethodDescriptor<StringValue, StringValue> SAY_HELLO = MethodDescriptor
            .<StringValue, StringValue>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(Greeter.class.getName(), "sayHello"))
            .setRequestMarshaller(new ProtoMarshaller<>(StringValue.parser()))
            .setResponseMarshaller(new ProtoMarshaller<>(StringValue.parser()))
            .build();

    private static final MethodDescriptor<StringValue, Int64Value> COUNT = GrpcClientStreamTest.method(
            MethodDescriptor.MethodType.CLIENT_STREAMING, "count", StringValue.parser(), Int64Value.parser());

    private static JupiterServer server() {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().threadNamePrefix("grpc-limits").writerIdleMillis(0)
                        .maxBodySize(CAP).build())
                .protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(new GreeterImpl(), Greeter.class);
        return server;
    }

    @Test
    void aMessageOverTheBodyCapIsRefusedAndTheConnectionServesOn() throws Exception {
        try (JupiterServer server = server()) {
            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.start().getPort())
                    .usePlaintext().build();
            try {
                assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, SAY_HELLO,
                        CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS),
                        StringValue.of("x".repeat(CAP + 1))))
                        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
                            assertThat(e.getStatus().getDescription()).contains("cap");
                        });
                assertThat(ClientCalls.blockingUnaryCall(channel, SAY_HELLO, CallOptions.DEFAULT,
                        StringValue.of("small")).getValue()).isEqualTo("Hello, small");
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * The third message of a client stream is over the cap: the call ends RESOURCE_EXHAUSTED, the method's reader
     * learns it, and the next call on the same connection is served.
     */
    @Test
    void aClientStreamMessageOverTheBodyCapEndsThatCallOnly() throws Exception {
        TallyImpl tally = new TallyImpl();
        try (JupiterServer server = server()) {
            server.register(tally, Tally.class);
            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.start().getPort())
                    .usePlaintext().build();
            try {
                Received<Int64Value> answer = new Received<>();
                StreamObserver<StringValue> chunks = ClientCalls.asyncClientStreamingCall(channel.newCall(COUNT,
                        CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS)), answer);
                chunks.onNext(StringValue.of("one"));
                chunks.onNext(StringValue.of("two"));
                chunks.onNext(StringValue.of("x".repeat(CAP + 1)));
                Status status = answer.closed.get(20, TimeUnit.SECONDS);
                assertThat(status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
                assertThat(status.getDescription()).contains("cap");
                assertThat(tally.countEnded.get(20, TimeUnit.SECONDS)).as("how the method's reading ended")
                        .isEqualTo(StatusTable.STREAM_CANCELLED.status());
                assertThat(ClientCalls.blockingUnaryCall(channel, SAY_HELLO, CallOptions.DEFAULT,
                        StringValue.of("small")).getValue()).isEqualTo("Hello, small");
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }
}
