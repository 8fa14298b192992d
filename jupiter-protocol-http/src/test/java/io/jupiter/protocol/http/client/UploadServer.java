package io.jupiter.protocol.http.client;

import com.google.protobuf.Int64Value;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.google.protobuf.StringValue;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.jupiter.protocol.http.ProtoMarshaller;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * grpc-java's own server (Netty, direct executor) serving the client and bidirectional streams of {@code test.Upload}
 * on 127.0.0.1, port 0, with a stream flow-control window of {@link #WINDOW} bytes (its connection's too).
 */
final class UploadServer implements AutoCloseable {

    static final String SERVICE = "test.Upload";
    /** The HTTP/2 window the server gives each stream and its connection (grpc-java: the same for both). */
    static final int WINDOW = 256 * 1024;

    /** Client streams and bidirectional streams begun. */
    final AtomicInteger calls = new AtomicInteger();
    /** Calls the client cancelled (reset) before they ended. */
    final AtomicInteger cancelled = new AtomicInteger();
    /** Messages the server read. */
    final AtomicInteger received = new AtomicInteger();
    /** The deadline each call arrived with, in milliseconds left ({@code -1}: none). */
    final List<Long> deadlinesMillis = new CopyOnWriteArrayList<>();
    private final Server server;

    UploadServer() throws IOException {
        ServerServiceDefinition upload = ServerServiceDefinition.builder(SERVICE)
                .addMethod(method("Sum", MethodDescriptor.MethodType.CLIENT_STREAMING, Int64Value.parser(),
                        Int64Value.parser()), ServerCalls.asyncClientStreamingCall(this::sum))
                .addMethod(method("Chat", MethodDescriptor.MethodType.BIDI_STREAMING, Int64Value.parser(),
                        Int64Value.parser()), ServerCalls.asyncBidiStreamingCall(this::chat))
                .addMethod(method("Stall", MethodDescriptor.MethodType.CLIENT_STREAMING, StringValue.parser(),
                        Int64Value.parser()), ServerCalls.asyncClientStreamingCall(this::stall))
                .addMethod(method("Size", MethodDescriptor.MethodType.CLIENT_STREAMING, StringValue.parser(),
                        Int64Value.parser()), ServerCalls.asyncClientStreamingCall(this::size))
                .addMethod(method("Refuse", MethodDescriptor.MethodType.CLIENT_STREAMING, Int64Value.parser(),
                        Int64Value.parser()), ServerCalls.asyncClientStreamingCall(this::refuse))
                .addMethod(method("Echo", MethodDescriptor.MethodType.UNARY, StringValue.parser(),
                        StringValue.parser()), ServerCalls.asyncUnaryCall(
                                (StringValue text, StreamObserver<StringValue> out) -> {
                                    out.onNext(StringValue.of("echo:" + text.getValue()));
                                    out.onCompleted();
                                }))
                .build();
        this.server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).directExecutor()
                .flowControlWindow(WINDOW).addService(upload).build();
        server.start();
    }

    /** Sums 1, 2, ... n sent in order; a value out of order fails the call {@code FAILED_PRECONDITION}. */
    private StreamObserver<Int64Value> sum(StreamObserver<Int64Value> out) {
        begin(out);
        return new StreamObserver<>() {
            private long expected = 1;
            private long sum;
            private boolean failed;

            @Override
            public void onNext(Int64Value value) {
                received.incrementAndGet();
                if (failed) {
                    return;
                }
                if (value.getValue() != expected) {
                    failed = true;
                    out.onError(Status.FAILED_PRECONDITION.withDescription("got " + value.getValue()
                            + " where " + expected + " was expected").asRuntimeException());
                    return;
                }
                expected++;
                sum += value.getValue();
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                if (!failed) {
                    out.onNext(Int64Value.of(sum));
                    out.onCompleted();
                }
            }
        };
    }

    /** Answers each message with itself. */
    private StreamObserver<Int64Value> chat(StreamObserver<Int64Value> out) {
        begin(out);
        return new StreamObserver<>() {
            @Override
            public void onNext(Int64Value value) {
                received.incrementAndGet();
                out.onNext(value);
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                out.onCompleted();
            }
        };
    }

    /** The characters of all the texts sent. */
    private StreamObserver<StringValue> size(StreamObserver<Int64Value> out) {
        begin(out);
        return new StreamObserver<>() {
            private long size;

            @Override
            public void onNext(StringValue value) {
                received.incrementAndGet();
                size += value.getValue().length();
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                out.onNext(Int64Value.of(size));
                out.onCompleted();
            }
        };
    }

    /** Never asks for a message (grpc-java's inbound flow control: nothing is read, no window returned). */
    private StreamObserver<StringValue> stall(StreamObserver<Int64Value> out) {
        begin(out);
        ((ServerCallStreamObserver<Int64Value>) out).disableAutoRequest();
        return new StreamObserver<>() {
            @Override
            public void onNext(StringValue value) {
                received.incrementAndGet();
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
            }
        };
    }

    /** Reads 3 messages, then answers {@code UNAVAILABLE} (a code that says the call did not run). */
    private StreamObserver<Int64Value> refuse(StreamObserver<Int64Value> out) {
        begin(out);
        return new StreamObserver<>() {
            @Override
            public void onNext(Int64Value value) {
                if (received.incrementAndGet() == 3) {
                    out.onError(Status.UNAVAILABLE.withDescription("full after 3").asRuntimeException());
                }
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
            }
        };
    }

    private void begin(StreamObserver<?> out) {
        calls.incrementAndGet();
        Deadline deadline = Context.current().getDeadline();
        deadlinesMillis.add(deadline == null ? -1 : deadline.timeRemaining(TimeUnit.MILLISECONDS));
        ((ServerCallStreamObserver<?>) out).setOnCancelHandler(cancelled::incrementAndGet);
    }

    String address() {
        return "127.0.0.1:" + server.getPort();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow();
        server.awaitTermination(10, TimeUnit.SECONDS);
    }

    private static <Q extends Message, R extends Message> MethodDescriptor<Q, R> method(
            String name, MethodDescriptor.MethodType type, Parser<Q> request, Parser<R> response) {
        return MethodDescriptor.<Q, R>newBuilder().setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(new ProtoMarshaller<>(request))
                .setResponseMarshaller(new ProtoMarshaller<>(response)).build();
    }
}
