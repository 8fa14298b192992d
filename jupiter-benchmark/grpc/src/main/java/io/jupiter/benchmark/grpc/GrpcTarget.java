package io.jupiter.benchmark.grpc;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.jupiter.benchmark.driver.BenchmarkTarget;
import io.jupiter.benchmark.driver.ClientSettings;
import io.jupiter.benchmark.driver.ServerSettings;
import io.jupiter.benchmark.driver.StreamListener;
import io.jupiter.benchmark.driver.TargetClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * gRPC-java as a load-driver target, through its public API and its defaults (Netty transport, plaintext HTTP/2, the
 * default executors; gRPC's builders bind every address and pick their own event-loop threads, so the server's host and
 * both sides' IO threads are not set). {@code hello} is the unary {@code Hello}; server streams are {@code Ticks}, sent
 * under {@code isReady}/on-ready ({@link TickSender}), as client streams are ({@code upload}, {@link ClientTicks}),
 * bidirectional streams ({@code echo}: {@link ClientTicks} and, echoing under the same rule, {@link TickEchoer}),
 * and read with the stub's default inbound flow control (one message requested after each one delivered, within
 * HTTP/2's connection and stream windows). With {@code direct}, both sides run handlers and callbacks on the transport
 * threads ({@code directExecutor()}). The client opens one channel (one HTTP/2 connection) per requested connection and
 * takes them in turn. Messages are protobuf's bytes, written and read by {@link BenchmarkMethods}
 * ({@link BytesMarshaller}: the server echoes the request's bytes without parsing them), whatever serializer the run
 * asks. The client ({@link #connect}) calls any gRPC server of those methods: the target {@code grpc-on-jupiter} points
 * it at a Jupiter provider.
 */
public final class GrpcTarget implements BenchmarkTarget {

    private static final long DEADLINE_SECONDS = 3;

    @Override
    public AutoCloseable startServer(ServerSettings settings) throws Exception {
        ServerServiceDefinition service = ServerServiceDefinition.builder(BenchmarkMethods.SERVICE)
                .addMethod(BenchmarkMethods.HELLO, ServerCalls.asyncUnaryCall(GrpcTarget::echo))
                .addMethod(BenchmarkMethods.TICKS, ServerCalls.asyncServerStreamingCall(TickSender::start))
                .addMethod(BenchmarkMethods.UPLOAD, ServerCalls.asyncClientStreamingCall(GrpcTarget::countTicks))
                .addMethod(BenchmarkMethods.ECHO, ServerCalls.asyncBidiStreamingCall(TickEchoer::start))
                .build();
        ServerBuilder<?> builder = Grpc.newServerBuilderForPort(settings.port(), InsecureServerCredentials.create())
                .addService(service);
        if (settings.direct()) {
            builder.directExecutor();
        }
        Server server = builder.build().start();
        return () -> {
            server.shutdown();
            if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        };
    }

    @Override
    public TargetClient connect(ClientSettings settings) {
        if (!settings.scenario().equals("hello")) {
            throw new UnsupportedOperationException("the gRPC target serves hello and streams only, not "
                    + settings.scenario());
        }
        List<ManagedChannel> channels = new ArrayList<>();
        for (int i = 0; i < settings.connections(); i++) {
            ManagedChannelBuilder<?> builder = Grpc.newChannelBuilderForAddress(settings.host(), settings.port(),
                    InsecureChannelCredentials.create());
            if (settings.direct()) {
                builder.directExecutor();
            }
            ManagedChannel channel = builder.build();
            // Connect now, as the other targets do before their first call.
            channel.getState(true);
            channels.add(channel);
        }
        return new Calls(channels, BenchmarkMethods.stringValue(settings.payload()));
    }

    private static void echo(byte[] request, StreamObserver<byte[]> response) {
        response.onNext(request);
        response.onCompleted();
    }

    /** The server side of one {@code upload}: counts the ticks (gRPC asks for each next one as one is delivered). */
    private static StreamObserver<byte[]> countTicks(StreamObserver<byte[]> response) {
        return new StreamObserver<>() {
            private long read;

            @Override
            public void onNext(byte[] tick) {
                read++;
            }

            @Override
            public void onError(Throwable error) {
            }

            @Override
            public void onCompleted() {
                response.onNext(BenchmarkMethods.int64Value(read));
                response.onCompleted();
            }
        };
    }

    private static final class Calls implements TargetClient {
        private final List<ManagedChannel> channels;
        private final byte[] payload;
        private final AtomicInteger next = new AtomicInteger();

        Calls(List<ManagedChannel> channels, byte[] payload) {
            this.channels = channels;
            this.payload = payload;
        }

        @Override
        public void call() {
            check(ClientCalls.blockingUnaryCall(channel(), BenchmarkMethods.HELLO, options(), payload));
        }

        @Override
        public CompletableFuture<?> callAsync() {
            CompletableFuture<byte[]> reply = new CompletableFuture<>();
            ClientCalls.asyncUnaryCall(channel().newCall(BenchmarkMethods.HELLO, options()), payload,
                    new StreamObserver<>() {
                        @Override
                        public void onNext(byte[] value) {
                            reply.complete(check(value));
                        }

                        @Override
                        public void onError(Throwable error) {
                            reply.completeExceptionally(error);
                        }

                        @Override
                        public void onCompleted() {
                            reply.completeExceptionally(new IllegalStateException("completed without a reply"));
                        }
                    });
            return reply;
        }

        @Override
        public AutoCloseable openStream(StreamListener listener) {
            ClientCall<byte[], byte[]> call = channel().newCall(BenchmarkMethods.TICKS, CallOptions.DEFAULT);
            ClientCalls.asyncServerStreamingCall(call, payload, new StreamObserver<>() {
                @Override
                public void onNext(byte[] tick) {
                    listener.onMessage(BenchmarkMethods.sentNanos(tick));
                }

                @Override
                public void onError(Throwable error) {
                    listener.onEnd(error);
                }

                @Override
                public void onCompleted() {
                    listener.onEnd(null);
                }
            });
            return () -> call.cancel("the load is over", null);
        }

        @Override
        public AutoCloseable openUpload(StreamListener listener) {
            ClientTicks uploader = ClientTicks.upload(payload, listener);
            ClientCalls.asyncClientStreamingCall(channel().newCall(BenchmarkMethods.UPLOAD, CallOptions.DEFAULT),
                    uploader);
            return uploader;
        }

        @Override
        public AutoCloseable openEcho(StreamListener listener) {
            ClientTicks echo = ClientTicks.echo(payload, listener);
            ClientCalls.asyncBidiStreamingCall(channel().newCall(BenchmarkMethods.ECHO, CallOptions.DEFAULT), echo);
            return echo;
        }

        @Override
        public void close() {
            for (ManagedChannel channel : channels) {
                channel.shutdownNow();
            }
            for (ManagedChannel channel : channels) {
                try {
                    channel.awaitTermination(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        private ManagedChannel channel() {
            return channels.get(Math.floorMod(next.getAndIncrement(), channels.size()));
        }

        private byte[] check(byte[] reply) {
            if (reply.length != payload.length) {
                throw new IllegalStateException("unexpected reply of " + reply.length + " bytes");
            }
            return reply;
        }

        private static CallOptions options() {
            return CallOptions.DEFAULT.withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
        }
    }
}
