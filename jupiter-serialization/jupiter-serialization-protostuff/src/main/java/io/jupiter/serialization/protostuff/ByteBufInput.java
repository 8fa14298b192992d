package io.jupiter.serialization.protostuff;

import static io.protostuff.WireFormat.WIRETYPE_END_GROUP;
import static io.protostuff.WireFormat.WIRETYPE_FIXED32;
import static io.protostuff.WireFormat.WIRETYPE_FIXED64;
import static io.protostuff.WireFormat.WIRETYPE_LENGTH_DELIMITED;
import static io.protostuff.WireFormat.WIRETYPE_START_GROUP;
import static io.protostuff.WireFormat.WIRETYPE_TAIL_DELIMITER;
import static io.protostuff.WireFormat.WIRETYPE_VARINT;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.protostuff.ByteString;
import io.protostuff.Input;
import io.protostuff.Output;
import io.protostuff.ProtobufException;
import io.protostuff.Schema;
import io.protostuff.StringSerializer;
import io.protostuff.UninitializedMessageException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Protostuff's wire format read straight from a {@link ByteBuf}, between two indexes, without a {@link ByteBuffer}
 * view of it: protostuff's own {@code ByteBufferInput} needed one from Netty (a duplicate and a slice of a pooled
 * direct buffer) and made a third slice of its own, three objects per message read.
 *
 * <p>It reads what {@code ByteBufferInput} reads in protostuff mode: nested messages are groups (their end is an
 * end-group tag, or protostuff's tail delimiter), packed repeated scalars are accepted, and unknown fields are
 * skipped. Truncated or malformed input fails with a {@link ProtobufException} (or, for a length that runs past
 * the end, an {@link IndexOutOfBoundsException}), never by reading outside the range it was given. The buffer's
 * own indexes are not moved: {@link #position()} tells how far the reading got.
 */
final class ByteBufInput implements Input {

    private static final int TAG_TYPE_BITS = 3;
    private static final int TAG_TYPE_MASK = (1 << TAG_TYPE_BITS) - 1;

    /** Bodies up to this size in direct memory are copied to the heap first, on Jupiter's own threads. */
    static final int COPIED_MAX = 4096;
    private static final VarHandle INTS_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final FastThreadLocal<ByteBuf> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected ByteBuf initialValue() {
            return Unpooled.wrappedBuffer(new byte[COPIED_MAX]);
        }
    };

    // Not final: a thread's own reader is reset for each read (LegacyNameInput#of).
    private ByteBuf buffer;
    /** The buffer's array when it has one: bytes are read from it without the buffer's checks on every read. */
    private byte[] array;
    private int arrayBase;
    private int limit;
    private int position;
    private int lastTag;
    /** The end of the packed field being read, or 0. */
    private int packedLimit;

    /** Reads {@code buffer} from {@code start} (inclusive) to {@code limit} (exclusive). */
    ByteBufInput(ByteBuf buffer, int start, int limit) {
        reset(buffer, start, limit);
    }

    /** From now on reads {@code buffer} from {@code start} to {@code limit}, as a new input would. */
    private void reset(ByteBuf buffer, int start, int limit) {
        this.buffer = buffer;
        this.array = buffer.hasArray() ? buffer.array() : null;
        this.arrayBase = array != null ? buffer.arrayOffset() : 0;
        this.position = start;
        this.limit = limit;
        this.lastTag = 0;
        this.packedLimit = 0;
    }

    /** Lets go of the buffer read (a reused input must not keep it reachable). */
    void clear() {
        reset(Unpooled.EMPTY_BUFFER, 0, 0);
    }

    /**
     * Reads the readable bytes of {@code buffer}, leaving its indexes where they are. A small body in direct memory
     * read on one of Jupiter's threads is copied to that thread's scratch array first: each read from a pooled slice
     * checks its bounds and liveness and translates its index (a sixth of a provider IO thread's time at async 32),
     * and one copy of a few hundred bytes costs less than that.
     */
    static ByteBufInput readable(ByteBuf buffer) {
        return readable(buffer, null);
    }

    /** {@link #readable(ByteBuf)} into {@code reused}, reset to read it; a new input if {@code reused} is null. */
    static ByteBufInput readable(ByteBuf buffer, ByteBufInput reused) {
        ByteBuf read = buffer;
        int start = buffer.readerIndex();
        int limit = buffer.writerIndex();
        int length = buffer.readableBytes();
        if (!buffer.hasArray() && length <= COPIED_MAX && Thread.currentThread() instanceof FastThreadLocalThread) {
            read = SCRATCH.get();
            buffer.getBytes(start, read, 0, length);
            start = 0;
            limit = length;
        }
        if (reused == null) {
            return new ByteBufInput(read, start, limit);
        }
        reused.reset(read, start, limit);
        return reused;
    }

    /** Where the next byte would be read. */
    int position() {
        return position;
    }

    /** Goes back to {@code position}, read before: the bytes from there on are read again. */
    void reset(int position) {
        this.position = position;
    }

    /** Bytes left before the limit. */
    int remaining() {
        return limit - position;
    }

    /** The buffer read, for reads at {@link #position()} that {@link #skip} past. */
    ByteBuf buffer() {
        return buffer;
    }

    /** Moves past {@code length} bytes the caller has read itself; they must be there. */
    void skip(int length) {
        if (length < 0 || length > remaining()) {
            throw new IndexOutOfBoundsException("skip " + length + " bytes with " + remaining() + " left");
        }
        position += length;
    }

    /**
     * Whether the next bytes are {@code bytes}, read as they are (nothing is consumed); {@code false} in the middle
     * of a packed field, where the next read is not of the bytes.
     */
    boolean nextBytesAre(byte[] bytes) {
        if (readingPacked() || limit - position < bytes.length) {
            return false;
        }
        for (int i = 0; i < bytes.length; i++) {
            byte b = array != null ? array[arrayBase + position + i] : buffer.getByte(position + i);
            if (b != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** Fails unless the last tag read was {@code value} (0: the message ended where it should). */
    void checkLastTagWas(int value) throws ProtobufException {
        if (lastTag != value) {
            throw new ProtobufException("Protocol message end-group tag did not match expected tag.");
        }
    }

    private boolean readingPacked() {
        return packedLimit != 0 && packedLimit != position;
    }

    @Override
    public <T> int readFieldNumber(Schema<T> schema) throws IOException {
        if (position == limit) {
            lastTag = 0;
            return 0;
        }
        if (readingPacked()) {
            if (packedLimit < position) {
                throw misreportedSize();
            }
            return lastTag >>> TAG_TYPE_BITS;
        }
        packedLimit = 0;
        int tag = readRawVarint32();
        int fieldNumber = tag >>> TAG_TYPE_BITS;
        int wireType = tag & TAG_TYPE_MASK;
        if (fieldNumber == 0) {
            if (wireType == WIRETYPE_TAIL_DELIMITER) {
                lastTag = 0;
                return 0;
            }
            throw new ProtobufException("Protocol message contained an invalid tag (zero).");
        }
        if (wireType == WIRETYPE_END_GROUP) {
            lastTag = 0;
            return 0;
        }
        lastTag = tag;
        return fieldNumber;
    }

    @Override
    public <T> void handleUnknownField(int fieldNumber, Schema<T> schema) throws IOException {
        skipField(lastTag);
    }

    /** Skips one field; {@code false} for an end-group tag, which has nothing to skip. */
    private boolean skipField(int tag) throws IOException {
        switch (tag & TAG_TYPE_MASK) {
            case WIRETYPE_VARINT:
                readRawVarint64();
                return true;
            case WIRETYPE_FIXED64:
                advance(8);
                return true;
            case WIRETYPE_LENGTH_DELIMITED:
                advance(checkedLength());
                return true;
            case WIRETYPE_START_GROUP:
                skipGroup();
                checkLastTagWas(((tag >>> TAG_TYPE_BITS) << TAG_TYPE_BITS) | WIRETYPE_END_GROUP);
                return true;
            case WIRETYPE_END_GROUP:
                return false;
            case WIRETYPE_FIXED32:
                advance(4);
                return true;
            default:
                throw new ProtobufException("Protocol message tag had invalid wire type.");
        }
    }

    private void skipGroup() throws IOException {
        while (true) {
            if (position == limit) {
                lastTag = 0;
                return;
            }
            int tag = readRawVarint32();
            if (tag >>> TAG_TYPE_BITS == 0) {
                throw new ProtobufException("Protocol message contained an invalid tag (zero).");
            }
            lastTag = tag;
            if (!skipField(tag)) {
                return;
            }
        }
    }

    /** A packed field's values come one after another inside one length-delimited field. */
    private void enterPackedField() throws IOException {
        if (packedLimit == 0 && (lastTag & TAG_TYPE_MASK) == WIRETYPE_LENGTH_DELIMITED) {
            int length = checkedLength();
            packedLimit = position + length;
        }
    }

    @Override
    public int readInt32() throws IOException {
        enterPackedField();
        return readRawVarint32();
    }

    @Override
    public int readUInt32() throws IOException {
        enterPackedField();
        return readRawVarint32();
    }

    @Override
    public int readSInt32() throws IOException {
        enterPackedField();
        int n = readRawVarint32();
        return (n >>> 1) ^ -(n & 1);
    }

    @Override
    public int readFixed32() throws IOException {
        enterPackedField();
        return readRawLittleEndian32();
    }

    @Override
    public int readSFixed32() throws IOException {
        enterPackedField();
        return readRawLittleEndian32();
    }

    @Override
    public long readInt64() throws IOException {
        enterPackedField();
        return readRawVarint64();
    }

    @Override
    public long readUInt64() throws IOException {
        enterPackedField();
        return readRawVarint64();
    }

    @Override
    public long readSInt64() throws IOException {
        enterPackedField();
        long n = readRawVarint64();
        return (n >>> 1) ^ -(n & 1);
    }

    @Override
    public long readFixed64() throws IOException {
        enterPackedField();
        return readRawLittleEndian64();
    }

    @Override
    public long readSFixed64() throws IOException {
        enterPackedField();
        return readRawLittleEndian64();
    }

    @Override
    public float readFloat() throws IOException {
        enterPackedField();
        return Float.intBitsToFloat(readRawLittleEndian32());
    }

    @Override
    public double readDouble() throws IOException {
        enterPackedField();
        return Double.longBitsToDouble(readRawLittleEndian64());
    }

    @Override
    public boolean readBool() throws IOException {
        enterPackedField();
        return readRawByte() != 0;
    }

    @Override
    public int readEnum() throws IOException {
        enterPackedField();
        return readRawVarint32();
    }

    /** Decoded as protostuff decodes it (its {@code io.protostuff.cesu8_compat} included). */
    @Override
    public String readString() throws IOException {
        return StringSerializer.STRING.deser(readByteArray());
    }

    @Override
    public ByteString readBytes() throws IOException {
        return ByteString.copyFrom(readByteArray());
    }

    @Override
    public void readBytes(ByteBuffer dst) throws IOException {
        int length = checkedLength();
        ByteBuffer target = dst.duplicate();
        target.limit(target.position() + length);
        buffer.getBytes(position, target);
        dst.position(dst.position() + length);
        position += length;
    }

    @Override
    public byte[] readByteArray() throws IOException {
        int length = checkedLength();
        byte[] bytes = new byte[length];
        if (array != null) {
            System.arraycopy(array, arrayBase + position, bytes, 0, length);
        } else {
            buffer.getBytes(position, bytes);
        }
        position += length;
        return bytes;
    }

    @Override
    public ByteBuffer readByteBuffer() throws IOException {
        return ByteBuffer.wrap(readByteArray());
    }

    @Override
    public <T> T mergeObject(T value, Schema<T> schema) throws IOException {
        T message = value == null ? schema.newMessage() : value;
        schema.mergeFrom(this, message);
        if (!schema.isInitialized(message)) {
            throw new UninitializedMessageException(message, schema);
        }
        checkLastTagWas(0);
        return message;
    }

    @Override
    public void transferByteRangeTo(Output output, boolean utf8String, int fieldNumber, boolean repeated)
            throws IOException {
        byte[] bytes = readByteArray();
        if (utf8String) {
            output.writeByteRange(true, fieldNumber, bytes, 0, bytes.length, repeated);
        } else {
            output.writeBytes(fieldNumber, ByteBuffer.wrap(bytes), repeated);
        }
    }

    /** A length prefix, checked against what is left. */
    private int checkedLength() throws IOException {
        int length = readRawVarint32();
        if (length < 0) {
            throw new ProtobufException("CodedInput encountered an embedded string or bytes that misreported its"
                    + " size (negative).");
        }
        if (length > limit - position) {
            throw misreportedSize();
        }
        return length;
    }

    private static ProtobufException misreportedSize() {
        return new ProtobufException("CodedInput encountered an embedded string or bytes that misreported its"
                + " size.");
    }

    private void advance(int length) throws ProtobufException {
        if (length > limit - position) {
            throw truncated();
        }
        position += length;
    }

    private static ProtobufException truncated() {
        return new ProtobufException("Truncated message.");
    }

    private byte readRawByte() throws ProtobufException {
        if (position == limit) {
            throw truncated();
        }
        return array != null ? array[arrayBase + position++] : buffer.getByte(position++);
    }

    /** A varint of up to 32 bits; longer ones (negative ints are written in 10 bytes) keep their low 32 bits. */
    int readRawVarint32() throws IOException {
        byte b = readRawByte();
        if (b >= 0) {
            return b;
        }
        int result = b & 0x7f;
        for (int shift = 7; shift < 32; shift += 7) {
            b = readRawByte();
            if (shift == 28) {
                result |= b << shift;
                if (b >= 0) {
                    return result;
                }
                for (int i = 0; i < 5; i++) {
                    if (readRawByte() >= 0) {
                        return result;
                    }
                }
                throw new ProtobufException("CodedInput encountered a malformed varint.");
            }
            result |= (b & 0x7f) << shift;
            if (b >= 0) {
                return result;
            }
        }
        throw new IllegalStateException("unreachable");
    }

    private long readRawVarint64() throws IOException {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = readRawByte();
            result |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return result;
            }
        }
        throw new ProtobufException("CodedInput encountered a malformed varint.");
    }

    private int readRawLittleEndian32() throws ProtobufException {
        if (limit - position < 4) {
            throw truncated();
        }
        int value = array != null ? (int) INTS_LE.get(array, arrayBase + position) : buffer.getIntLE(position);
        position += 4;
        return value;
    }

    private long readRawLittleEndian64() throws ProtobufException {
        if (limit - position < 8) {
            throw truncated();
        }
        long value = array != null ? (long) LONGS_LE.get(array, arrayBase + position) : buffer.getLongLE(position);
        position += 8;
        return value;
    }
}
