package io.jupiter.benchmark.grpc;

import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Messages as they are: a byte array is its own wire form, so no protobuf and no generated code are needed. */
final class BytesMarshaller implements MethodDescriptor.Marshaller<byte[]> {

    static final BytesMarshaller INSTANCE = new BytesMarshaller();

    private BytesMarshaller() {
    }

    @Override
    public InputStream stream(byte[] value) {
        return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
        try (stream) {
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading a message", e);
        }
    }
}
