package io.jupiter.example.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.jupiter.protocol.http.HttpProtocols;
import io.jupiter.protocol.http.client.GrpcClientProtocol;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The service written from {@code greeter.proto}, served with gRPC on: grpc-java's own client calls it by the
 * {@code .proto}'s names ({@code /io.jupiter.example.grpc.Greeter/SayHello}, unary and server streaming) with the
 * classes protoc generated, and so does a Jupiter proxy through the gRPC consumer ({@code UPPER_CAMEL} names).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GreeterFromProtoTest {

    private static final String SERVICE = "io.jupiter.example.grpc.Greeter";
    private static final CallOptions TEN_SECONDS = CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);

    private JupiterServer server;
    private int port;

    @BeforeEach
    void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(new GreeterImpl(), Greeter.class);
        port = server.start().getPort();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void grpcJavasClientCallsItByTheProtosNames() throws InterruptedException {
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        try {
            HelloRequest ada = HelloRequest.newBuilder().setName("Ada").setCount(3).build();
            HelloReply reply = ClientCalls.blockingUnaryCall(channel, method("SayHello", MethodDescriptor.MethodType
                    .UNARY), TEN_SECONDS, ada);
            assertThat(reply.getMessage()).isEqualTo("Hello, Ada!");

            Iterator<HelloReply> replies = ClientCalls.blockingServerStreamingCall(channel, method("SayHellos",
                    MethodDescriptor.MethodType.SERVER_STREAMING), TEN_SECONDS, ada);
            List<String> messages = new ArrayList<>();
            replies.forEachRemaining(r -> messages.add(r.getMessage()));
            assertThat(messages).containsExactly("Hello 1, Ada!", "Hello 2, Ada!", "Hello 3, Ada!");
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aJupiterProxyCallsItOverGrpc() {
        GrpcClientProtocol grpc = GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL).build();
        try (JupiterClient client = JupiterClient.builder().build()) {
            Greeter greeter = client.proxy(Greeter.class).protocol(grpc).address("127.0.0.1:" + port)
                    .timeoutMillis(10_000).build();
            assertThat(greeter.sayHello(HelloRequest.newBuilder().setName("Grace").build()).getMessage())
                    .isEqualTo("Hello, Grace!");
        } finally {
            grpc.close();
        }
    }

    private static MethodDescriptor<HelloRequest, HelloReply> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.<HelloRequest, HelloReply>newBuilder().setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(ProtoUtils.marshaller(HelloRequest.getDefaultInstance()))
                .setResponseMarshaller(ProtoUtils.marshaller(HelloReply.getDefaultInstance())).build();
    }
}
