package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.transport.TransportConfig;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A gRPC request message over the body cap is refused with RESOURCE_EXHAUSTED; the connection serves on. */
class GrpcLimitsTest {

    private static final int CAP = 64 * 1024;

    private static final MethodDescriptor<StringValue, StringValue> SAY_HELLO = MethodDescriptor
            .<StringValue, StringValue>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(Greeter.class.getName(), "sayHello"))
            .setRequestMarshaller(new ProtoMarshaller<>(StringValue.parser()))
            .setResponseMarshaller(new ProtoMarshaller<>(StringValue.parser()))
            .build();

    @Test
    void aMessageOverTheBodyCapIsRefusedAndTheConnectionServesOn() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().threadNamePrefix("grpc-limits").writerIdleMillis(0)
                        .maxBodySize(CAP).build())
                .protocols(HttpProtocols.httpAndGrpc()).build()) {
            server.register(new GreeterImpl(), Greeter.class);
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
}
