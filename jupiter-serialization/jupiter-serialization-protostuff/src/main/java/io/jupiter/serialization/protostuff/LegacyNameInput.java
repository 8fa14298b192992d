package io.jupiter.serialization.protostuff;

import io.jupiter.serialization.wire.LegacyClassNames;
import io.protostuff.ByteBufferInput;
import io.protostuff.ByteString;
import io.protostuff.Input;
import io.protostuff.Output;
import io.protostuff.Schema;
import io.protostuff.UninitializedMessageException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Protostuff input that reads Jupiter 1.3.1's exception class names ({@code org.jupiter.rpc.exception.*}) as our
 * wire classes of the same simple name. A dynamic value's class name is the string right after the field number
 * that says "a POJO" (127) or "a throwable" (52); only those strings are looked up, every other read is passed
 * through. Nested messages are merged here rather than in the wrapped input, so that their reads pass through this
 * class too (protostuff's format encodes them as groups).
 */
final class LegacyNameInput implements Input {

    static final int ID_THROWABLE = 52;
    static final int ID_POJO = 127;

    private final ByteBufferInput in;
    private int lastField;

    LegacyNameInput(ByteBufferInput in) {
        this.in = in;
    }

    @Override
    public <T> int readFieldNumber(Schema<T> schema) throws IOException {
        lastField = in.readFieldNumber(schema);
        return lastField;
    }

    @Override
    public String readString() throws IOException {
        String value = in.readString();
        if (lastField == ID_POJO || lastField == ID_THROWABLE) {
            Class<?> local = LegacyClassNames.localClass(value);
            if (local != null && value.startsWith(LegacyClassNames.EXCEPTION_PACKAGE)) {
                return local.getName();
            }
        }
        return value;
    }

    @Override
    public <T> T mergeObject(T value, Schema<T> schema) throws IOException {
        T message = value == null ? schema.newMessage() : value;
        schema.mergeFrom(this, message);
        if (!schema.isInitialized(message)) {
            throw new UninitializedMessageException(message, schema);
        }
        in.checkLastTagWas(0);
        return message;
    }

    void checkLastTagWas(int tag) throws IOException {
        in.checkLastTagWas(tag);
    }

    @Override
    public <T> void handleUnknownField(int fieldNumber, Schema<T> schema) throws IOException {
        in.handleUnknownField(fieldNumber, schema);
    }

    @Override
    public int readInt32() throws IOException {
        return in.readInt32();
    }

    @Override
    public int readUInt32() throws IOException {
        return in.readUInt32();
    }

    @Override
    public int readSInt32() throws IOException {
        return in.readSInt32();
    }

    @Override
    public int readFixed32() throws IOException {
        return in.readFixed32();
    }

    @Override
    public int readSFixed32() throws IOException {
        return in.readSFixed32();
    }

    @Override
    public long readInt64() throws IOException {
        return in.readInt64();
    }

    @Override
    public long readUInt64() throws IOException {
        return in.readUInt64();
    }

    @Override
    public long readSInt64() throws IOException {
        return in.readSInt64();
    }

    @Override
    public long readFixed64() throws IOException {
        return in.readFixed64();
    }

    @Override
    public long readSFixed64() throws IOException {
        return in.readSFixed64();
    }

    @Override
    public float readFloat() throws IOException {
        return in.readFloat();
    }

    @Override
    public double readDouble() throws IOException {
        return in.readDouble();
    }

    @Override
    public boolean readBool() throws IOException {
        return in.readBool();
    }

    @Override
    public int readEnum() throws IOException {
        return in.readEnum();
    }

    @Override
    public ByteString readBytes() throws IOException {
        return in.readBytes();
    }

    @Override
    public void readBytes(ByteBuffer dst) throws IOException {
        in.readBytes(dst);
    }

    @Override
    public byte[] readByteArray() throws IOException {
        return in.readByteArray();
    }

    @Override
    public ByteBuffer readByteBuffer() throws IOException {
        return in.readByteBuffer();
    }

    @Override
    public void transferByteRangeTo(Output output, boolean utf8String, int fieldNumber, boolean repeated)
            throws IOException {
        in.transferByteRangeTo(output, utf8String, fieldNumber, repeated);
    }
}
