package io.jupiter.registry.embedded.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/** Appends protostuff's wire format (protobuf field encoding, nested messages as groups) to a buffer. */
final class ProtoWriter {

    static final int VARINT = 0;
    static final int LENGTH_DELIMITED = 2;
    static final int START_GROUP = 3;
    static final int END_GROUP = 4;

    private final ByteBuf out;

    ProtoWriter(ByteBuf out) {
        this.out = out;
    }

    void tag(int field, int wireType) {
        varint32((field << 3) | wireType);
    }

    void int32(int field, int value) {
        tag(field, VARINT);
        if (value >= 0) {
            varint32(value);
        } else {
            varint64(value); // protobuf sign-extends negative int32 to ten bytes
        }
    }

    void int64(int field, long value) {
        tag(field, VARINT);
        varint64(value);
    }

    /** Writes nothing for {@code null}, as protostuff does for an unset field. */
    void string(int field, String value) {
        if (value == null) {
            return;
        }
        tag(field, LENGTH_DELIMITED);
        varint32(ByteBufUtil.utf8Bytes(value));
        ByteBufUtil.writeUtf8(out, value);
    }

    void startGroup(int field) {
        tag(field, START_GROUP);
    }

    void endGroup(int field) {
        tag(field, END_GROUP);
    }

    private void varint32(int value) {
        while ((value & ~0x7f) != 0) {
            out.writeByte((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.writeByte(value);
    }

    private void varint64(long value) {
        while ((value & ~0x7fL) != 0) {
            out.writeByte((int) (value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.writeByte((int) value);
    }
}
