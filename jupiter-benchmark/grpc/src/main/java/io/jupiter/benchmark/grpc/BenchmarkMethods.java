package io.jupiter.benchmark.grpc;

import io.grpc.MethodDescriptor;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The gRPC methods of the benchmark, written by hand instead of generated from a {@code .proto}, with messages in
 * protobuf's wire form so that any gRPC server of protobuf messages can answer them (a Jupiter provider with gRPC on
 * among them):
 * <pre>
 * service jupiter.benchmark.Benchmark {
 *   rpc hello(google.protobuf.StringValue) returns (google.protobuf.StringValue);   // echoes its argument
 *   rpc ticks(google.protobuf.StringValue) returns (stream grpc.channelz.v1.ChannelRef);
 *   rpc upload(stream grpc.channelz.v1.ChannelRef) returns (google.protobuf.Int64Value);  // counts the ticks
 *   rpc echo(stream grpc.channelz.v1.ChannelRef) returns (stream grpc.channelz.v1.ChannelRef);  // sends them back
 * }
 * </pre>
 * A tick is a message of the shape {@code {int64 = 1; string = 2}} (the server's {@link System#nanoTime()} at send,
 * then the request's string), the shape of the generated {@code ChannelRef} of grpc-services, which a Jupiter
 * provider declares as its stream's message. The bytes are written and read here, so this side needs no protobuf
 * library: the client sends and checks the same bytes whichever server answers.
 */
final class BenchmarkMethods {

    static final String SERVICE = "jupiter.benchmark.Benchmark";

    static final MethodDescriptor<byte[], byte[]> HELLO = method(MethodDescriptor.MethodType.UNARY, "hello");
    static final MethodDescriptor<byte[], byte[]> TICKS = method(MethodDescriptor.MethodType.SERVER_STREAMING,
            "ticks");
    static final MethodDescriptor<byte[], byte[]> UPLOAD = method(MethodDescriptor.MethodType.CLIENT_STREAMING,
            "upload");
    static final MethodDescriptor<byte[], byte[]> ECHO = method(MethodDescriptor.MethodType.BIDI_STREAMING, "echo");

    /** Field 1, length-delimited: a {@code StringValue}'s value. */
    private static final int STRING_FIELD_1 = 0x0a;
    /** Field 1, varint: a tick's send time. */
    private static final int VARINT_FIELD_1 = 0x08;
    /** Field 2, length-delimited: a tick's string. */
    private static final int STRING_FIELD_2 = 0x12;

    private BenchmarkMethods() {
    }

    /** {@code google.protobuf.StringValue} of {@code value}, as protobuf writes it. */
    static byte[] stringValue(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(utf8.length + 6);
        if (utf8.length > 0) { // proto3 leaves out an empty string
            out.write(STRING_FIELD_1);
            writeVarint(out, utf8.length);
            out.writeBytes(utf8);
        }
        return out.toByteArray();
    }

    /**
     * A tick carrying the string of {@code request} (a {@code StringValue}'s bytes): field 1 the send time, field 2
     * the string, in field order as protobuf writes them.
     */
    static byte[] tick(byte[] request) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(request.length + 12);
        out.write(VARINT_FIELD_1);
        writeVarint(out, System.nanoTime());
        if (request.length > 0) { // the StringValue's field 1 is the tick's field 2: same length and bytes
            out.write(STRING_FIELD_2);
            out.write(request, 1, request.length - 1);
        }
        return out.toByteArray();
    }

    /** {@code google.protobuf.Int64Value} of {@code value}, as protobuf writes it (proto3 leaves out a 0). */
    static byte[] int64Value(long value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(11);
        if (value != 0) {
            out.write(VARINT_FIELD_1);
            writeVarint(out, value);
        }
        return out.toByteArray();
    }

    /** The send time of a tick (its field 1), or 0 when it has none. */
    static long sentNanos(byte[] tick) {
        if (tick.length == 0 || tick[0] != VARINT_FIELD_1) {
            return 0;
        }
        long value = 0;
        for (int i = 1, shift = 0; i < tick.length && shift < 64; i++, shift += 7) {
            value |= (long) (tick[i] & 0x7f) << shift;
            if ((tick[i] & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("a tick's send time is cut short");
    }

    private static void writeVarint(ByteArrayOutputStream out, long value) {
        long rest = value;
        while ((rest & ~0x7fL) != 0) {
            out.write((int) (rest & 0x7f) | 0x80);
            rest >>>= 7;
        }
        out.write((int) rest);
    }

    private static MethodDescriptor<byte[], byte[]> method(MethodDescriptor.MethodType type, String name) {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(BytesMarshaller.INSTANCE).setResponseMarshaller(BytesMarshaller.INSTANCE)
                .build();
    }
}
