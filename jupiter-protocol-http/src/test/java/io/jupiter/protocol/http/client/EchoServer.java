package io.jupiter.protocol.http.client;

import com.google.protobuf.Int64Value;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.StringValue;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.jupiter.protocol.http.ProtoMarshaller;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

/** grpc-java's own server (Netty, direct executor) serving {@code test.Echo} on 127.0.0.1, port 0. */
final class EchoServer implements AutoCloseable {

    static final String SERVICE = "test.Echo";
    private static final Context.Key<String> TENANT = Context.key("tenant");
    private static final Metadata.Key<String> TENANT_HEADER = Metadata.Key.of("tenant",
            Metadata.ASCII_STRING_MARSHALLER);
    private static final Context.Key<byte[]> TRACE = Context.key("trace");
    private static final Metadata.Key<byte[]> TRACE_HEADER = Metadata.Key.of("trace-bin",
            Metadata.BINARY_BYTE_MARSHALLER);

    final String name;
    final AtomicInteger calls = new AtomicInteger();
    /** Calls the client reset before they were answered. */
    final AtomicInteger cancelled = new AtomicInteger();
    /** Messages the server streams ({@code Count}, {@code Flood}, {@code FailAfter}) handed to grpc-java. */
    final AtomicInteger streamed = new AtomicInteger();
    /** Whether a stream's {@code isReady()} went false (the client's flow control held it back). */
    final AtomicBoolean heldBack = new AtomicBoolean();
    /** Whether {@code Echo} never answers either. */
    private final boolean slowEcho;
    /** The deadline each call arrived with, in milliseconds left ({@code -1}: none). */
    final List<Long> deadlinesMillis = new CopyOnWriteArrayList<>();
    /** Calls that never get an answer, so the server's shutdown can end them. */
    private final List<StreamObserver<?>> hanging = new CopyOnWriteArrayList<>();
    private final Server server;

    EchoServer(String name) throws IOException {
        this(name, false);
    }

    /** @param slowEcho whether {@code Echo} never answers (a server stuck on that method) */
    EchoServer(String name, boolean slowEcho) throws IOException {
        this(name, slowEcho, null);
    }

    /** @param tls the server's TLS ({@code GrpcSslContexts.forServer(...)}), or {@code null} for cleartext */
    EchoServer(String name, boolean slowEcho, SslContext tls) throws IOException {
        this.name = name;
        this.slowEcho = slowEcho;
        ServerServiceDefinition echo = ServerServiceDefinition.builder(SERVICE)
                .addMethod(method("Echo", StringValue.parser()), ServerCalls.asyncUnaryCall(this::echo))
                .addMethod(method("EchoAsync", StringValue.parser()), ServerCalls.asyncUnaryCall(this::echo))
                .addMethod(method("Deny", StringValue.parser()), ServerCalls.asyncUnaryCall(
                        (StringValue text, StreamObserver<StringValue> out) -> {
                            calls.incrementAndGet();
                            out.onError(Status.PERMISSION_DENIED.withDescription("no entry for " + text.getValue()
                                    + " (é)").asRuntimeException());
                        }))
                .addMethod(MethodDescriptor.<Int64Value, StringValue>newBuilder()
                        .setType(MethodDescriptor.MethodType.UNARY)
                        .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Big"))
                        .setRequestMarshaller(marshaller(Int64Value.parser()))
                        .setResponseMarshaller(marshaller(StringValue.parser())).build(),
                        ServerCalls.asyncUnaryCall((Int64Value bytes, StreamObserver<StringValue> out) -> {
                            calls.incrementAndGet();
                            out.onNext(StringValue.of("b".repeat((int) bytes.getValue())));
                            out.onCompleted();
                        }))
                .addMethod(stream("Count", Int64Value.parser()), ServerCalls.asyncServerStreamingCall(
                        (Int64Value n, StreamObserver<Int64Value> out) ->
                                stream(n.getValue(), i -> Int64Value.of(i + 1), null, out)))
                .addMethod(stream("Flood", StringValue.parser()), ServerCalls.asyncServerStreamingCall(
                        (Int64Value n, StreamObserver<StringValue> out) ->
                                stream(n.getValue(), i -> StringValue.of("f".repeat(1024)), null, out)))
                .addMethod(stream("FailAfter", Int64Value.parser()), ServerCalls.asyncServerStreamingCall(
                        (Int64Value n, StreamObserver<Int64Value> out) -> stream(n.getValue(),
                                i -> Int64Value.of(i + 1), Status.NOT_FOUND.withDescription("gone after "
                                        + n.getValue()), out)))
                .addMethod(method("Hang", Int64Value.parser()), ServerCalls.asyncUnaryCall(
                        (Int64Value ignored, StreamObserver<Int64Value> out) -> {
                            calls.incrementAndGet();
                            recordDeadline();
                            hang(out);
                        }))
                .build();
        ServerInterceptor tenant = new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call,
                                                                      Metadata headers,
                                                                      ServerCallHandler<Q, R> next) {
                return Contexts.interceptCall(Context.current().withValues(TENANT, headers.get(TENANT_HEADER),
                        TRACE, headers.get(TRACE_HEADER)), call, headers, next);
            }
        };
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .directExecutor().addService(ServerInterceptors.intercept(echo, tenant));
        if (tls != null) {
            builder.sslContext(tls);
        }
        this.server = builder.build();
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void echo(StringValue text, StreamObserver<StringValue> out) {
        calls.incrementAndGet();
        recordDeadline();
        if (slowEcho) {
            hang(out);
            return;
        }
        String tenant = TENANT.get();
        byte[] trace = TRACE.get();
        out.onNext(StringValue.of(name + ":" + text.getValue() + (tenant == null ? "" : " tenant=" + tenant)
                + (trace == null ? "" : " trace=" + Arrays.toString(trace))));
        out.onCompleted();
    }

    /**
     * Streams {@code count} messages as grpc-java's flow control allows (only while {@code isReady()}), then ends
     * with OK or {@code end}.
     */
    private <T> void stream(long count, LongFunction<T> message, Status end, StreamObserver<T> out) {
        calls.incrementAndGet();
        recordDeadline();
        ServerCallStreamObserver<T> call = (ServerCallStreamObserver<T>) out;
        call.setOnCancelHandler(cancelled::incrementAndGet);
        long[] next = {0};
        Runnable send = () -> {
            while (next[0] < count && !call.isCancelled()) {
                if (!call.isReady()) {
                    heldBack.set(true);
                    return;
                }
                call.onNext(message.apply(next[0]++));
                streamed.incrementAndGet();
            }
            if (next[0] == count && !call.isCancelled()) {
                next[0]++;
                if (end == null) {
                    call.onCompleted();
                } else {
                    call.onError(end.asRuntimeException());
                }
            }
        };
        call.setOnReadyHandler(send);
        send.run();
    }

    private void hang(StreamObserver<?> out) {
        ((ServerCallStreamObserver<?>) out).setOnCancelHandler(cancelled::incrementAndGet);
        hanging.add(out);
    }

    private void recordDeadline() {
        Deadline deadline = Context.current().getDeadline();
        deadlinesMillis.add(deadline == null ? -1 : deadline.timeRemaining(TimeUnit.MILLISECONDS));
    }

    String address() {
        return "127.0.0.1:" + server.getPort();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow();
        server.awaitTermination(10, TimeUnit.SECONDS);
    }

    private static <T extends Message> MethodDescriptor<T, T> method(String name, Parser<T> parser) {
        MethodDescriptor.Marshaller<T> marshaller = marshaller(parser);
        return MethodDescriptor.<T, T>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(marshaller).setResponseMarshaller(marshaller).build();
    }

    private static <T extends Message> MethodDescriptor<Int64Value, T> stream(String name, Parser<T> parser) {
        return MethodDescriptor.<Int64Value, T>newBuilder().setType(MethodDescriptor.MethodType.SERVER_STREAMING)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(marshaller(Int64Value.parser())).setResponseMarshaller(marshaller(parser))
                .build();
    }

    private static <T extends Message> MethodDescriptor.Marshaller<T> marshaller(Parser<T> parser) {
        return new ProtoMarshaller<>(parser);
    }
}
