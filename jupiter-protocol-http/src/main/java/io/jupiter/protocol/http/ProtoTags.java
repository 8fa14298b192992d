package io.jupiter.protocol.http;

/** Protobuf wire-format tags, for the few messages this module reads and writes by hand. */
final class ProtoTags {

    private static final int LENGTH_DELIMITED = 2;

    private ProtoTags() {
    }

    /** The tag of a length-delimited field (string, bytes, message) numbered {@code field}. */
    static int lengthDelimited(int field) {
        return field << 3 | LENGTH_DELIMITED;
    }
}
