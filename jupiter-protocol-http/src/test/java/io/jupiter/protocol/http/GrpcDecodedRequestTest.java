package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ListValue;
import com.google.protobuf.StringValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializerType;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A unary gRPC call reaches the provider already read and is answered without a response frame: a message that
 * protostuff cannot write (a map field) is answered, on a server whose read limits (depth 1) no request or answer
 * written in protostuff would pass (the calls failed {@code INTERNAL} when they were), through the interceptors. The
 * provider's lookup and authorization still run for it: an unauthorized caller, a service pinned to another
 * serializer and an unknown method get what they got before (checked against the code that wrote the frames).
 */
class GrpcDecodedRequestTest {

    private static final AtomicInteger INTERCEPTED = new AtomicInteger();

    private static JupiterServer server;
    private static ManagedChannel channel;
    /** A server whose authorizer refuses {@code reverse} to everyone. */
    private static JupiterServer guarded;
    private static ManagedChannel guardedChannel;
    /** A server whose {@link Greeter} accepts only Hessian (the calls count as protostuff's). */
    private static JupiterServer pinned;
    private static ManagedChannel pinnedChannel;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc())
                .readLimits(ReadLimits.of(1, 1))
                .interceptor(new Interceptor() {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                        INTERCEPTED.incrementAndGet();
                    }
                })
                .build();
        server.register(new GreeterImpl(), Greeter.class);
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.start().getPort()).usePlaintext().build();
        guarded = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc())
                .authorizer((caller, service, method) -> !method.equals("reverse")).build();
        guarded.register(new GreeterImpl(), Greeter.class);
        guardedChannel = ManagedChannelBuilder.forAddress("127.0.0.1", guarded.start().getPort()).usePlaintext()
                .build();
        pinned = JupiterServer.builder().host("127.0.0.1").port(0).protocols(HttpProtocols.httpAndGrpc()).build();
        pinned.register(new GreeterImpl(), Greeter.class);
        pinned.pinSerializers(ServiceKey.of(Greeter.class, ServiceKey.DEFAULT_VERSION), SerializerType.HESSIAN);
        pinnedChannel = ManagedChannelBuilder.forAddress("127.0.0.1", pinned.start().getPort()).usePlaintext()
                .build();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        pinnedChannel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        guardedChannel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        server.close();
        pinned.close();
        guarded.close();
    }

    @Test
    void aCallIsServedWithoutItsRequestOrAnswerBeingSerialized() {
        int before = INTERCEPTED.get();
        for (int i = 0; i < 20; i++) {
            assertThat(ClientCalls.blockingUnaryCall(channel, GrpcMethods.SAY_HELLO,
                    CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), StringValue.of("Ada" + i)).getValue())
                    .isEqualTo("Hello, Ada" + i);
        }
        assertThat(INTERCEPTED.get() - before).isEqualTo(20);
        // Protostuff cannot write map fields: this call failed INTERNAL when protostuff carried its message.
        Struct sent = Struct.newBuilder().putFields("name", Value.newBuilder().setStringValue("Ada").build()).build();
        Struct reply = ClientCalls.blockingUnaryCall(channel, GrpcMethods.unary("annotate", Struct.parser(),
                Struct.parser()), CallOptions.DEFAULT, sent);
        assertThat(reply.getFieldsMap()).containsKeys("name", "seen");
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, GrpcMethods.unary("fail",
                StringValue.parser(), StringValue.parser()), CallOptions.DEFAULT, StringValue.of("not today")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN);
                    assertThat(e.getStatus().getDescription()).contains("IllegalArgumentException: not today");
                });
    }

    @Test
    void theProvidersLookupAndAuthorizationStillRefuse() {
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(guardedChannel, GrpcMethods.unary("reverse",
                ListValue.parser(), ListValue.parser()), CallOptions.DEFAULT,
                ListValue.getDefaultInstance()))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
                    assertThat(e.getStatus().getDescription()).contains("is not authorized to call")
                            .contains(Greeter.class.getName() + "-1.0.0.reverse");
                });
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(guardedChannel, GrpcMethods.unary("noSuchMethod",
                StringValue.parser(), StringValue.parser()), CallOptions.DEFAULT, StringValue.of("x")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED));
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(pinnedChannel, GrpcMethods.SAY_HELLO,
                CallOptions.DEFAULT, StringValue.of("Ada")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                    assertThat(e.getStatus().getDescription()).contains("accepts only").contains("not protostuff");
                });
    }
}
