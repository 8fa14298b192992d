package io.jupiter.registry.embedded.internal;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/** Reads protostuff's wire format from a buffer; every malformation is a {@link RegistryCodecException}. */
final class ProtoReader {

    private final ByteBuf in;

    ProtoReader(ByteBuf in) {
        this.in = in;
    }

    /** The next tag, or 0 at the end of the input. */
    int readTag() {
        return in.isReadable() ? (int) varint64() : 0;
    }

    static int field(int tag) {
        return tag >>> 3;
    }

    static int wireType(int tag) {
        return tag & 7;
    }

    long int64() {
        return varint64();
    }

    int int32() {
        return (int) varint64();
    }

    String string() {
        long length = varint64();
        if (length < 0 || length > in.readableBytes()) {
            throw new RegistryCodecException("string of " + length + " bytes with " + in.readableBytes() + " left");
        }
        if (length > RegistryCodec.MAX_STRING_BYTES) {
            throw new RegistryCodecException("string of " + length + " bytes (expected: at most "
                    + RegistryCodec.MAX_STRING_BYTES + ")");
        }
        return in.readCharSequence((int) length, StandardCharsets.UTF_8).toString();
    }

    /** Skips the value of a field whose tag was just read. */
    void skip(int tag, int depth) {
        switch (wireType(tag)) {
            case ProtoWriter.VARINT -> varint64();
            case 1 -> skipBytes(8);
            case ProtoWriter.LENGTH_DELIMITED -> skipBytes(varint64());
            case 5 -> skipBytes(4);
            case ProtoWriter.START_GROUP -> {
                if (depth > RegistryCodec.MAX_DEPTH) {
                    throw new RegistryCodecException("groups nested deeper than " + RegistryCodec.MAX_DEPTH);
                }
                int end = (field(tag) << 3) | ProtoWriter.END_GROUP;
                int next;
                while ((next = readTag()) != end) {
                    if (next == 0) {
                        throw new RegistryCodecException("group of field " + field(tag) + " not closed");
                    }
                    skip(next, depth + 1);
                }
            }
            default -> throw new RegistryCodecException("unexpected wire type " + wireType(tag) + " of field "
                    + field(tag));
        }
    }

    private void skipBytes(long count) {
        if (count < 0 || count > in.readableBytes()) {
            throw new RegistryCodecException("field of " + count + " bytes with " + in.readableBytes() + " left");
        }
        in.skipBytes((int) count);
    }

    private long varint64() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (!in.isReadable()) {
                throw new RegistryCodecException("truncated varint");
            }
            byte b = in.readByte();
            result |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new RegistryCodecException("varint longer than ten bytes");
    }
}
