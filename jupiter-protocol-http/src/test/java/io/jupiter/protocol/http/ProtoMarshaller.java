package io.jupiter.protocol.http;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.InputStream;

/** grpc-java's marshaller for one protobuf message type (what grpc-protobuf's ProtoUtils gives, written here). */
public final class ProtoMarshaller<T extends Message> implements MethodDescriptor.Marshaller<T> {

    private final Parser<T> parser;

    public ProtoMarshaller(Parser<T> parser) {
        this.parser = parser;
    }

    @Override
    public InputStream stream(T value) {
        return new ByteArrayInputStream(value.toByteArray());
    }

    @Override
    public T parse(InputStream stream) {
        try {
            return parser.parseFrom(stream);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
