package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Int64Value;
import com.google.protobuf.ListValue;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.StringValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** grpc-java's own client (ManagedChannel, Netty) against a Jupiter server on 127.0.0.1. */
class GrpcJavaClientTest {

    private static final String SERVICE = Greeter.class.getName();

    private static JupiterServer server;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(new GreeterImpl(), Greeter.class);
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.start().getPort()).usePlaintext().build();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        server.close();
    }

    private static <Q extends Message, R extends Message> MethodDescriptor<Q, R> method(String name, Q request,
                                                                                        R response) {
        @SuppressWarnings("unchecked")
        MethodDescriptor<Q, R> method = MethodDescriptor.<Q, R>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(new ProtoMarshaller<>((Parser<Q>) request.getParserForType()))
                .setResponseMarshaller(new ProtoMarshaller<>((Parser<R>) response.getParserForType()))
                .build();
        return method;
    }

    private static final MethodDescriptor<StringValue, StringValue> SAY_HELLO = method("sayHello",
            StringValue.getDefaultInstance(), StringValue.getDefaultInstance());
    private static final MethodDescriptor<Int64Value, Int64Value> SLEEP = method("sleep",
            Int64Value.getDefaultInstance(), Int64Value.getDefaultInstance());
    private static final MethodDescriptor<StringValue, StringValue> FAIL = method("fail",
            StringValue.getDefaultInstance(), StringValue.getDefaultInstance());

    @Test
    void callsUnaryMethodsOfProtobufMessages() {
        StringValue reply = ClientCalls.blockingUnaryCall(channel, SAY_HELLO,
                CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), StringValue.of("Ada"));
        assertThat(reply.getValue()).isEqualTo("Hello, Ada");
        for (int i = 0; i < 50; i++) { // many calls on one HTTP/2 connection
            assertThat(ClientCalls.blockingUnaryCall(channel, SAY_HELLO, CallOptions.DEFAULT,
                    StringValue.of("n" + i)).getValue()).isEqualTo("Hello, n" + i);
        }
    }

    @Test
    void carriesMessagesOfRepeatedNestedAndOneofFields() {
        MethodDescriptor<ListValue, ListValue> reverse = method("reverse", ListValue.getDefaultInstance(),
                ListValue.getDefaultInstance());
        ListValue sent = ListValue.newBuilder()
                .addValues(Value.newBuilder().setStringValue("Ada"))
                .addValues(Value.newBuilder().setNumberValue(1.5))
                .addValues(Value.newBuilder().setBoolValue(true))
                .build();
        ListValue reply = ClientCalls.blockingUnaryCall(channel, reverse, CallOptions.DEFAULT, sent);
        assertThat(reply.getValuesList()).containsExactly(sent.getValues(2), sent.getValues(1), sent.getValues(0));
    }

    /**
     * A unary call's message reaches the provider as parsed, never written in protostuff (which cannot write map
     * fields, and ended this call {@code INTERNAL} when it carried the message): a {@code Struct} is answered.
     */
    @Test
    void aMessageWithAMapFieldIsAnswered() {
        MethodDescriptor<Struct, Struct> annotate = method("annotate", Struct.getDefaultInstance(),
                Struct.getDefaultInstance());
        Struct sent = Struct.newBuilder().putFields("name", Value.newBuilder().setStringValue("Ada").build()).build();
        Struct reply = ClientCalls.blockingUnaryCall(channel, annotate, CallOptions.DEFAULT, sent);
        assertThat(reply.getFieldsMap()).containsEntry("name", Value.newBuilder().setStringValue("Ada").build())
                .containsEntry("seen", Value.newBuilder().setBoolValue(true).build()).hasSize(2);
        assertThat(ClientCalls.blockingUnaryCall(channel, SAY_HELLO, CallOptions.DEFAULT,
                StringValue.of("still here")).getValue()).isEqualTo("Hello, still here");
    }

    @Test
    void metadataArrivesAsAttachments() {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("tenant", Metadata.ASCII_STRING_MARSHALLER), "acme");
        StringValue reply = ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(channel,
                MetadataUtils.newAttachHeadersInterceptor(headers)), SAY_HELLO, CallOptions.DEFAULT,
                StringValue.of("Ada"));
        assertThat(reply.getValue()).isEqualTo("Hello, Ada of acme");

        // Binary metadata: the attachment is the base64 text it travels as.
        Metadata binary = new Metadata();
        binary.put(Metadata.Key.of("trace-bin", Metadata.BINARY_BYTE_MARSHALLER), new byte[] {0, 1, 2, (byte) 0xff});
        StringValue traced = ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(channel,
                MetadataUtils.newAttachHeadersInterceptor(binary)), SAY_HELLO, CallOptions.DEFAULT,
                StringValue.of("Ada"));
        assertThat(traced.getValue()).isEqualTo("Hello, Ada traced AAEC/w");
    }

    @Test
    void grpcTimeoutIsTheCallsDeadline() {
        Int64Value left = ClientCalls.blockingUnaryCall(channel, SLEEP,
                CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), Int64Value.of(0));
        assertThat(left.getValue()).isBetween(1L, 20_000L);

        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, SLEEP,
                CallOptions.DEFAULT.withDeadlineAfter(300, TimeUnit.MILLISECONDS), Int64Value.of(3_000)))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
    }

    @Test
    void errorsCarryTheMappedStatus() {
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, FAIL, CallOptions.DEFAULT,
                StringValue.of("not today")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN);
                    assertThat(e.getStatus().getDescription()).contains("IllegalArgumentException: not today");
                });
        MethodDescriptor<StringValue, StringValue> missing = method("noSuchMethod",
                StringValue.getDefaultInstance(), StringValue.getDefaultInstance());
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, missing, CallOptions.DEFAULT,
                StringValue.of("x")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED));
        MethodDescriptor<StringValue, StringValue> plain = method("plain",
                StringValue.getDefaultInstance(), StringValue.getDefaultInstance());
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, plain, CallOptions.DEFAULT,
                StringValue.of("x")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
                    assertThat(e.getStatus().getDescription()).contains("not callable over gRPC");
                });
        // The connection survived every refusal.
        assertThat(ClientCalls.blockingUnaryCall(channel, SAY_HELLO, CallOptions.DEFAULT,
                StringValue.of("again")).getValue()).isEqualTo("Hello, again");
    }

    @Test
    void aJupiterClientCallsTheSameMethodsOnTheSamePort() {
        try (JupiterClient client = JupiterClient.builder().build()) {
            Greeter greeter = client.proxy(Greeter.class).address("127.0.0.1", server.localAddress().getPort())
                    .timeoutMillis(10_000).build();
            assertThat(greeter.plain("1.3.1 path")).isEqualTo("1.3.1 path");
            assertThat(greeter.sayHello(StringValue.of("Bob")).getValue()).isEqualTo("Hello, Bob");
        }
    }
}
