package io.jupiter.serialization.protostuff;

import static io.protostuff.WireFormat.WIRETYPE_END_GROUP;
import static io.protostuff.WireFormat.WIRETYPE_FIXED32;
import static io.protostuff.WireFormat.WIRETYPE_FIXED64;
import static io.protostuff.WireFormat.WIRETYPE_LENGTH_DELIMITED;
import static io.protostuff.WireFormat.WIRETYPE_START_GROUP;
import static io.protostuff.WireFormat.WIRETYPE_VARINT;

import io.jupiter.serialization.wire.LegacyClassNames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.protostuff.ByteString;
import io.protostuff.Output;
import io.protostuff.Schema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A protostuff {@link Output} that appends the "protostuff" format straight to a {@link ByteBuf}: protobuf wire
 * types, nested messages as groups, no length prefix for the root. Produces the same bytes as protostuff's
 * {@code ProtostuffOutput}, including its UTF-8 encoding of lone surrogates (three bytes each, not {@code '?'}).
 */
final class ByteBufOutput implements Output {

    /** Strings from this length on are tried with {@link #writeAscii}; shorter ones cost little either way. */
    static final int ASCII_BULK_MIN_CHARS = 32;

    /**
     * Each Jupiter thread's own output, pointed at the buffer of each write rather than made anew: a write on such a
     * thread makes none unless one write starts inside another.
     */
    private static final FastThreadLocal<ByteBufOutput> OWN = new FastThreadLocal<>() {
        @Override
        protected ByteBufOutput initialValue() {
            return new ByteBufOutput(null);
        }
    };

    /** Where the bytes go; {@code null} once the write is {@link #done} (a thread's own output is then free). */
    private ByteBuf out;

    ByteBufOutput(ByteBuf out) {
        this.out = out;
    }

    /**
     * An output appending to {@code out}, as {@code new ByteBufOutput(out)} would: this thread's own one on a Jupiter
     * thread when it is free. Hand it back with {@link #done} once the write is over.
     */
    static ByteBufOutput of(ByteBuf out) {
        if (!(Thread.currentThread() instanceof FastThreadLocalThread)) {
            return new ByteBufOutput(out);
        }
        ByteBufOutput own = OWN.get();
        if (own.out != null) {
            return new ByteBufOutput(out); // a write inside a write
        }
        own.out = out;
        return own;
    }

    /** The write is over: the output lets go of the buffer (a thread's own one is free again). */
    void done() {
        out = null;
    }

    @Override
    public void writeInt32(int fieldNumber, int value, boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_VARINT);
        if (value >= 0) {
            writeVarInt32(value);
        } else {
            // protobuf int32: negative values are sign-extended to 64 bits (10 bytes).
            writeVarInt64(value);
        }
    }

    @Override
    public void writeUInt32(int fieldNumber, int value, boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_VARINT);
        writeVarInt32(value);
    }

    @Override
    public void writeSInt32(int fieldNumber, int value, boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_VARINT);
        writeVarInt32((value << 1) ^ (value >> 31));
    }

    @Override
    public void writeFixed32(int fieldNumber, int value, boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_FIXED32);
        out.writeIntLE(value);
    }

    @Override
    public void writeSFixed32(int fieldNumber, int value, boolean repeated) {
        writeFixed32(fieldNumber, value, repeated);
    }

    @Override
    public void writeInt64(int fieldNumber, long value, boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_VARINT);
        writeVarInt64(value);
    }

    @Override
    public void writeUInt64(int fieldNumber, long value, boolean repeated) {
        writeInt64(fieldNumber, value, repeated);
    }

    @Override
    public void writeSInt64(int fieldNumber, long value, boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_VARINT);
        writeVarInt64((value << 1) ^ (value >> 63));
    }

    @Override
    public void writeFixed64(int fieldNumber, long value, boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_FIXED64);
        out.writeLongLE(value);
    }

    @Override
    public void writeSFixed64(int fieldNumber, long value, boolean repeated) {
        writeFixed64(fieldNumber, value, repeated);
    }

    @Override
    public void writeFloat(int fieldNumber, float value, boolean repeated) {
        writeFixed32(fieldNumber, Float.floatToRawIntBits(value), repeated);
    }

    @Override
    public void writeDouble(int fieldNumber, double value, boolean repeated) {
        writeFixed64(fieldNumber, Double.doubleToRawLongBits(value), repeated);
    }

    @Override
    public void writeBool(int fieldNumber, boolean value, boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_VARINT);
        out.writeByte(value ? 1 : 0);
    }

    @Override
    public void writeEnum(int fieldNumber, int value, boolean repeated) {
        writeInt32(fieldNumber, value, repeated);
    }

    @Override
    public void writeString(int fieldNumber, CharSequence value, boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_LENGTH_DELIMITED);
        if (fieldNumber == LegacyNameInput.ID_POJO || fieldNumber == LegacyNameInput.ID_THROWABLE) {
            // The class name of a dynamic value: our wire forms of 1.3.1's exceptions go out under 1.3.1's names.
            String legacy = LegacyClassNames.legacyName(value.toString());
            if (legacy != null && legacy.startsWith(LegacyClassNames.EXCEPTION_PACKAGE)) {
                writeUtf8(legacy);
                return;
            }
        }
        writeUtf8(value);
    }

    @Override
    public void writeBytes(int fieldNumber, ByteString value, boolean repeated) {
        writeBytes(fieldNumber, value.asReadOnlyByteBuffer(), repeated);
    }

    @Override
    public void writeByteArray(int fieldNumber, byte[] value, boolean repeated) {
        writeByteRange(false, fieldNumber, value, 0, value.length, repeated);
    }

    @Override
    public void writeByteRange(boolean utf8String, int fieldNumber, byte[] value, int offset, int length,
                               boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_LENGTH_DELIMITED);
        writeVarInt32(length);
        out.writeBytes(value, offset, length);
    }

    @Override
    public <T> void writeObject(int fieldNumber, T value, Schema<T> schema, boolean repeated) throws IOException {
        writeTag(fieldNumber, WIRETYPE_START_GROUP);
        schema.writeTo(this, value);
        writeTag(fieldNumber, WIRETYPE_END_GROUP);
    }

    @Override
    public void writeBytes(int fieldNumber, ByteBuffer value, boolean repeated) {
        writeTag(fieldNumber, WIRETYPE_LENGTH_DELIMITED);
        writeVarInt32(value.remaining());
        out.writeBytes(value.duplicate());
    }

    private void writeTag(int fieldNumber, int wireType) {
        writeVarInt32((fieldNumber << 3) | wireType);
    }

    private void writeVarInt32(int value) {
        while ((value & ~0x7f) != 0) {
            out.writeByte((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.writeByte(value);
    }

    private void writeVarInt64(long value) {
        while ((value & ~0x7fL) != 0) {
            out.writeByte(((int) value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.writeByte((int) value);
    }

    /** Length-prefixed UTF-8, encoded as protostuff's {@code StringSerializer} does. */
    private void writeUtf8(CharSequence s) {
        if (s instanceof String string && string.length() >= ASCII_BULK_MIN_CHARS && writeAscii(string)) {
            return;
        }
        int chars = s.length();
        int bytes = 0;
        boolean loneSurrogate = false;
        for (int i = 0; i < chars; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < chars && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                loneSurrogate |= Character.isSurrogate(c);
                bytes += 3;
            }
        }
        writeVarInt32(bytes);
        if (bytes == chars) {
            out.writeCharSequence(s, StandardCharsets.US_ASCII);
        } else if (!loneSurrogate) {
            // Well-formed UTF-16: Netty's encoder gives the same bytes.
            ByteBufUtil.reserveAndWriteUtf8(out, s, bytes);
        } else {
            writeUtf8Slow(s);
        }
    }

    /**
     * Writes {@code s} if every character is ASCII, with the JDK's vectorised encoder and one copy instead of two
     * passes a character at a time (which cost about 2 µs per 1,000 characters); {@code false}, writing nothing,
     * otherwise. One byte per character proves every character ASCII but for lone surrogates, which the encoder
     * turns into {@code '?'}: a {@code '?'} byte must stand for a {@code '?'}.
     */
    private boolean writeAscii(String s) {
        byte[] encoded = s.getBytes(StandardCharsets.UTF_8);
        if (encoded.length != s.length()) {
            return false;
        }
        for (int i = 0; i < encoded.length; i++) {
            if (encoded[i] == '?' && s.charAt(i) != '?') {
                return false;
            }
        }
        writeVarInt32(encoded.length);
        out.writeBytes(encoded);
        return true;
    }

    private void writeUtf8Slow(CharSequence s) {
        int chars = s.length();
        for (int i = 0; i < chars; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out.writeByte(c);
            } else if (c < 0x800) {
                out.writeByte(0xc0 | (c >> 6));
                out.writeByte(0x80 | (c & 0x3f));
            } else if (Character.isHighSurrogate(c) && i + 1 < chars && Character.isLowSurrogate(s.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, s.charAt(++i));
                out.writeByte(0xf0 | (codePoint >> 18));
                out.writeByte(0x80 | ((codePoint >> 12) & 0x3f));
                out.writeByte(0x80 | ((codePoint >> 6) & 0x3f));
                out.writeByte(0x80 | (codePoint & 0x3f));
            } else {
                out.writeByte(0xe0 | (c >> 12));
                out.writeByte(0x80 | ((c >> 6) & 0x3f));
                out.writeByte(0x80 | (c & 0x3f));
            }
        }
    }
}
