package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.Codec;
import io.grpc.CompressorRegistry;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.transport.TransportConfig;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Compressed request messages from grpc-java's own client ({@code withCompression}): gzip is inflated, within the
 * server's message cap; an encoding the server does not take is {@code UNIMPLEMENTED}, with the ones it takes.
 */
class GrpcCompressionTest {

    private static final int CAP = 64 * 1024;
    private static final Metadata.Key<String> ACCEPT_ENCODING = Metadata.Key.of("grpc-accept-encoding",
            Metadata.ASCII_STRING_MARSHALLER);
    private static final MethodDescriptor<Int64Value, Int64Value> SUM = GrpcClientStreamTest.method(
            MethodDescriptor.MethodType.CLIENT_STREAMING, "sum", Int64Value.parser(), Int64Value.parser());

    private static JupiterServer server;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().threadNamePrefix("grpc-gzip").maxBodySize(CAP).build())
                .protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(new GreeterImpl(), Greeter.class);
        server.register(new TallyImpl(), Tally.class);
        // "x-identity": an encoding this client knows and the server does not.
        CompressorRegistry compressors = CompressorRegistry.newEmptyInstance();
        compressors.register(new Codec.Gzip());
        compressors.register(new Codec() {
            @Override
            public String getMessageEncoding() {
                return "x-identity";
            }

            @Override
            public OutputStream compress(OutputStream os) {
                return os;
            }

            @Override
            public InputStream decompress(InputStream is) {
                return is;
            }
        });
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.start().getPort()).usePlaintext()
                .compressorRegistry(compressors).build();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        server.close();
    }

    @Test
    void aGzippedUnaryRequestIsInflatedAndAnswered() throws Exception {
        Headers seen = new Headers();
        String name = "Ada ".repeat(2_000); // 8,000 bytes that gzip makes small
        StringValue reply = ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(channel, seen),
                GrpcMethods.SAY_HELLO, CallOptions.DEFAULT.withCompression("gzip")
                        .withDeadlineAfter(20, TimeUnit.SECONDS), StringValue.of(name));
        assertThat(reply.getValue()).isEqualTo("Hello, " + name);
        assertThat(seen.headers.get(10, TimeUnit.SECONDS).get(ACCEPT_ENCODING)).isEqualTo("gzip");
    }

    @Test
    void aClientStreamOfGzippedMessagesIsSummed() throws Exception {
        Received<Int64Value> answer = new Received<>();
        StreamObserver<Int64Value> numbers = ClientCalls.asyncClientStreamingCall(channel.newCall(SUM,
                CallOptions.DEFAULT.withCompression("gzip").withDeadlineAfter(30, TimeUnit.SECONDS)), answer);
        for (long i = 1; i <= 200; i++) {
            numbers.onNext(Int64Value.of(i));
        }
        numbers.onCompleted();
        assertThat(answer.closed.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
        assertThat(answer.messages).containsExactly(Int64Value.of(20_100));
    }

    /** 16 MiB that gzip sends in about 16 KiB: refused once the cap is inflated, and the connection serves on. */
    @Test
    void aMessageThatInflatesPastTheCapIsRefusedResourceExhausted() {
        StringValue bomb = StringValue.of("0".repeat(16 << 20));
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, GrpcMethods.SAY_HELLO,
                CallOptions.DEFAULT.withCompression("gzip").withDeadlineAfter(20, TimeUnit.SECONDS), bomb))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
                    assertThat(e.getStatus().getDescription()).contains("inflates past the " + CAP + "-byte cap");
                });
        assertThat(ClientCalls.blockingUnaryCall(channel, GrpcMethods.SAY_HELLO, CallOptions.DEFAULT,
                StringValue.of("still here")).getValue()).isEqualTo("Hello, still here");
    }

    @Test
    void anEncodingTheServerDoesNotTakeIsUnimplementedWithTheOnesItTakes() throws Exception {
        Headers seen = new Headers();
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(ClientInterceptors.intercept(channel, seen),
                GrpcMethods.SAY_HELLO, CallOptions.DEFAULT.withCompression("x-identity")
                        .withDeadlineAfter(20, TimeUnit.SECONDS), StringValue.of("Ada")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
                    assertThat(e.getStatus().getDescription()).contains("grpc-encoding x-identity");
                });
        assertThat(seen.trailers.get(10, TimeUnit.SECONDS).get(ACCEPT_ENCODING)).isEqualTo("gzip");
    }

    /** The response headers and trailers of the calls made through it. */
    private static final class Headers implements ClientInterceptor {

        final CompletableFuture<Metadata> headers = new CompletableFuture<>();
        final CompletableFuture<Metadata> trailers = new CompletableFuture<>();

        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options,
                                                     Channel next) {
            return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                @Override
                public void start(Listener<R> listener, Metadata requestHeaders) {
                    super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                        @Override
                        public void onHeaders(Metadata received) {
                            headers.complete(received);
                            super.onHeaders(received);
                        }

                        @Override
                        public void onClose(Status status, Metadata received) {
                            trailers.complete(received);
                            super.onClose(status, received);
                        }
                    }, requestHeaders);
                }
            };
        }
    }
}
