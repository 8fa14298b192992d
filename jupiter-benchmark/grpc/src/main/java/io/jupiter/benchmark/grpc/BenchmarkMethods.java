package io.jupiter.benchmark.grpc;

import io.grpc.MethodDescriptor;
import java.nio.ByteBuffer;

/**
 * The gRPC methods of the benchmark, written by hand instead of generated from a {@code .proto}: {@code Hello}
 * (unary, echoes its bytes, as the original benchmark's {@code hello}) and {@code Ticks} (server streaming: each
 * message is the server's {@link System#nanoTime()} at send, 8 bytes big-endian, then the request's bytes).
 */
final class BenchmarkMethods {

    static final String SERVICE = "jupiter.benchmark.Benchmark";

    static final MethodDescriptor<byte[], byte[]> HELLO = method(MethodDescriptor.MethodType.UNARY, "Hello");
    static final MethodDescriptor<byte[], byte[]> TICKS = method(MethodDescriptor.MethodType.SERVER_STREAMING,
            "Ticks");

    private BenchmarkMethods() {
    }

    /** A tick: the send time, then the payload. */
    static byte[] tick(byte[] payload) {
        return ByteBuffer.allocate(Long.BYTES + payload.length).putLong(System.nanoTime()).put(payload).array();
    }

    /** The send time of a tick. */
    static long sentNanos(byte[] tick) {
        return ByteBuffer.wrap(tick).getLong();
    }

    private static MethodDescriptor<byte[], byte[]> method(MethodDescriptor.MethodType type, String name) {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(BytesMarshaller.INSTANCE).setResponseMarshaller(BytesMarshaller.INSTANCE)
                .build();
    }
}
