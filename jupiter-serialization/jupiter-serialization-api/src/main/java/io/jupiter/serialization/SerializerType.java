package io.jupiter.serialization;

import java.util.Locale;

/**
 * The serializers Jupiter knows, with the 4-bit code that travels in the high nibble of the frame's sign byte.
 * The codes are those of Jupiter 1.3.1 and must never change.
 */
public enum SerializerType {
    /** Protostuff runtime schemas; the default. */
    PROTOSTUFF((byte) 0x01, "protostuff"),
    /** Hessian 2. */
    HESSIAN((byte) 0x02, "hessian"),
    /** Kryo 5 (not byte-compatible with 1.3.1's Kryo 2.23). */
    KRYO((byte) 0x03, "kryo"),
    /** JDK serialization; off on providers unless enabled. */
    JAVA((byte) 0x04, "java");

    /** Largest code the 4-bit nibble can hold. */
    public static final int MAX_CODE = 0x0f;

    private static final SerializerType[] BY_CODE = new SerializerType[MAX_CODE + 1];

    static {
        for (SerializerType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final byte code;
    private final String id;

    SerializerType(byte code, String id) {
        this.code = code;
        this.id = id;
    }

    /** The wire code (1..14). */
    public byte code() {
        return code;
    }

    /** The lower-case name used in configuration and on the command line, e.g. {@code protostuff}. */
    public String id() {
        return id;
    }

    /** The type with this wire code, or {@code null} if none is known. */
    public static SerializerType fromCode(int code) {
        return code >= 0 && code <= MAX_CODE ? BY_CODE[code] : null;
    }

    /**
     * The type named {@code id} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the known ids if there is no such type
     */
    public static SerializerType parse(String id) {
        String wanted = id == null ? "" : id.trim().toLowerCase(Locale.ROOT);
        for (SerializerType type : values()) {
            if (type.id.equals(wanted)) {
                return type;
            }
        }
        throw new IllegalArgumentException("serializer: '" + id + "' (expected: protostuff, hessian, kryo or java)");
    }
}
