package io.jupiter.rpc.bounded;

import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Request bodies that ask a provider to allocate far more than they hold, or to recurse far deeper than any
 * argument does. Each starts from a real {@code echo(Object)} request written by the serializer itself (as a 1.3.1
 * consumer would write it; a parameter of type {@code Object}, so that the limits, not the parameter's type, stop
 * them) and changes only the bytes of one length, count or nesting, so everything else about it
 * is valid. The places are found by the bytes around them, and a change that finds its place more or less than
 * once fails the test: the serializer's format moved, not the provider.
 */
final class Bombs {

    /**
     * A bomb: a name for the report, which serializer reads it, the body, and whether a read limit must stop it
     * ({@code false}: the body is simply unreadable, e.g. it ends early or refers to an object that does not exist,
     * and is refused as any unreadable body is, with its connection closed).
     */
    record Bomb(String name, SerializerType serializer, byte[] body, boolean limit) {

        Bomb(String name, SerializerType serializer, byte[] body) {
            this(name, serializer, body, true);
        }

        Bomb unreadable() {
            return new Bomb(name, serializer, body, false);
        }

        @Override
        public String toString() {
            return serializer.id() + ": " + name + " (" + body.length + " bytes)";
        }
    }

    static final int MAX = Integer.MAX_VALUE;
    static final int TWO_HUNDRED_MILLION = 200_000_000;
    /** Deeper than any stack takes without a limit. */
    static final int DEEP = 100_000;

    private static final HexFormat HEX = HexFormat.of();

    private Bombs() {
    }

    static List<Bomb> all() {
        List<Bomb> bombs = new ArrayList<>();
        bombs.addAll(protostuff());
        bombs.addAll(kryo());
        bombs.addAll(hessian());
        bombs.addAll(java());
        return bombs;
    }

    /** A valid {@code echo(arg)} request body. */
    static byte[] hello(SerializerType type, Object arg) {
        MessageWrapper message = new MessageWrapper("a", new ServiceMetadata("test", "echo", "1.0.0"), "echo",
                new Object[] {arg}, null);
        ByteBuf body = Unpooled.buffer();
        try {
            Serializers.get(type).write(body, message);
            byte[] bytes = new byte[body.readableBytes()];
            body.readBytes(bytes);
            return bytes;
        } finally {
            body.release();
        }
    }

    // protostuff: args is an Object[] in a polymorphic slot, written as the array wrapper
    // 7a <len> "java.lang.Object" (component type), 18 <length>, 10 <dimensions>, then the elements as groups.

    private static final String PS_ARRAY = "7a106a6176612e6c616e672e4f626a656374";

    static List<Bomb> protostuff() {
        SerializerType t = SerializerType.PROTOSTUFF;
        byte[] hello = hello(t, "MARKA");
        String element = "0b4a054d41524b410c";
        String level = "0b" + PS_ARRAY + "18011001";
        return List.of(
                new Bomb("args array of length 2^31-1", t,
                        replace(hello, PS_ARRAY + "1801", PS_ARRAY + "18" + varint(MAX))),
                new Bomb("args array of length 2x10^8", t,
                        replace(hello, PS_ARRAY + "1801", PS_ARRAY + "18" + varint(TWO_HUNDRED_MILLION))),
                new Bomb("args array of 2^31-1 dimensions", t,
                        replace(hello, PS_ARRAY + "18011001", PS_ARRAY + "180110" + varint(MAX))),
                new Bomb("arrays nested " + DEEP + " deep", t,
                        replace(hello, element, level.repeat(DEEP) + element + "0c".repeat(DEEP))));
    }

    // kryo: 19 = Object[] (registered), then length + 1 as a varint; 03 = String; 1b = byte[]; 23 = ArrayList;
    // 25 = HashMap.

    static List<Bomb> kryo() {
        SerializerType t = SerializerType.KRYO;
        byte[] hello = hello(t, "MARKA");
        String marka = "034d41524bc1";
        return List.of(
                new Bomb("args array of length 2^31-2", t, replace(hello, "1902" + marka, "19" + varint(MAX) + marka)),
                new Bomb("args array of length 2x10^8", t,
                        replace(hello, "1902" + marka, "19" + varint(TWO_HUNDRED_MILLION) + marka)),
                new Bomb("ArrayList of 2^31-2", t,
                        replace(hello(t, new ArrayList<>(List.of("MARKA", "MARKB"))), "2383", "23ffffffff0f")),
                new Bomb("HashMap of 2^31-2", t,
                        replace(hello(t, new HashMap<>(Map.of("MARKA", "MARKB"))), "2502", "25" + varint(MAX))),
                new Bomb("string of 2^31-2 characters", t,
                        replace(hello(t, "M\u00e9RKA"), "0386", "03ffffffff0f")),
                new Bomb("byte[] of 2^31-2", t,
                        replace(hello(t, new byte[] {7, 7, 7}), "1b04" + "070707", "1b" + varint(MAX) + "070707")),
                new Bomb("arrays nested " + DEEP + " deep", t,
                        replace(hello, "1902" + marka, "1902".repeat(DEEP + 1) + marka)),
                new Bomb("throwable whose stack trace is an array of 2^31-1", t, throwableBomb()));
    }

    /**
     * Kryo writes throwables as JDK streams (length-prefixed); the stack trace array's length, the 4 bytes after its
     * class descriptor ({@code 78 70}: end of descriptor, no superclass), is replaced in place.
     */
    private static byte[] throwableBomb() {
        String hex = HEX.formatHex(hello(SerializerType.KRYO, new IllegalStateException("MARKA")));
        int at = indexOfAligned(hex, ascii("[Ljava.lang.StackTraceElement;"), 0);
        int length = indexOfAligned(hex, "7870", at) + 4;
        if (at < 0 || length < 4) {
            throw new IllegalStateException("no stack trace array in " + hex);
        }
        return HEX.parseHex(hex.substring(0, length) + int32(MAX) + hex.substring(length + 8));
    }

    // hessian: args is a typed fixed-length list 71 (length 1) 07 "[object"; nested ones refer to the type as 90.

    private static final String HS_ARGS = "71075b6f626a656374";

    static List<Bomb> hessian() {
        SerializerType t = SerializerType.HESSIAN;
        byte[] hello = hello(t, "MARKA");
        String marka = "054d41524b41";
        String wrapperDefinition = "43302d" + ascii("org.jupiter.rpc.model.metadata.MessageWrapper") + "95";
        return List.of(
                new Bomb("args array of length 2^31-1", t,
                        replace(hello, HS_ARGS, "56075b6f626a656374" + "49" + int32(MAX))),
                new Bomb("args array of length 2x10^8", t,
                        replace(hello, HS_ARGS, "56075b6f626a656374" + "49" + int32(TWO_HUNDRED_MILLION))),
                new Bomb("list of 2^31-1", t,
                        replace(hello(t, new ArrayList<>(List.of("MARKA", "MARKB"))), "7a" + marka,
                                "5849" + int32(MAX) + marka)),
                new Bomb("object definition of 2^31-1 fields", t,
                        replace(hello, wrapperDefinition, wrapperDefinition.substring(0,
                                wrapperDefinition.length() - 2) + "49" + int32(MAX))),
                new Bomb("string of 65535 characters in a short body", t,
                        replace(hello, marka + "4e", marka + "53ffff")).unreadable(),
                new Bomb("arrays nested " + DEEP + " deep", t,
                        replace(hello, HS_ARGS + marka, HS_ARGS + "7190".repeat(DEEP) + marka)),
                new Bomb("back-reference to object 2^31-1", t, replace(hello, HS_ARGS + marka,
                        HS_ARGS + "51" + "49" + int32(MAX))).unreadable(),
                new Bomb("1,100,000 objects to refer back to", t, replace(hello, HS_ARGS + marka,
                        HS_ARGS + "5690" + "49" + int32(1_100_000) + "78".repeat(1_100_000))));
    }

    // java: args is TC_ARRAY 75, class descriptor, then its length as 4 bytes (00000001); 74 0005 "MARKA" follows.

    static List<Bomb> java() {
        SerializerType t = SerializerType.JAVA;
        byte[] hello = hello(t, "MARKA");
        String marka = "7400054d41524b41";
        return List.of(
                new Bomb("args array of length 2^31-1", t,
                        replace(hello, "787000000001" + marka, "7870" + int32(MAX) + marka)),
                new Bomb("args array of length 2x10^8", t,
                        replace(hello, "787000000001" + marka, "7870" + int32(TWO_HUNDRED_MILLION) + marka)),
                new Bomb("ArrayList of 2^31-1", t,
                        replace(hello(t, new ArrayList<>(List.of("MARKA", "MARKB"))), "78700000000277040000000274",
                                "7870" + int32(MAX) + "77040000000274")),
                new Bomb("HashMap of 2^28 entries", t,
                        replace(hello(t, new HashMap<>(Map.of("MARKA", "MARKB"))), "7708" + "00000002" + "00000001",
                                "7708" + "00000002" + int32(1 << 28))),
                new Bomb("string of 2^31-1 bytes", t,
                        replace(hello, marka, "7c" + "000000007fffffff" + "4d41524b41")).unreadable(),
                new Bomb("arrays nested " + DEEP + " deep", t,
                        replace(hello, "787000000001" + marka,
                                "787000000001" + "7571007e000700000001".repeat(DEEP) + marka)),
                new Bomb("back-reference to handle 2^31-1", t,
                        replace(hello, "787000000001" + marka, "787000000001" + "71" + int32(MAX))).unreadable(),
                new Bomb("1,100,000 objects to refer back to", t, replace(hello, "787000000001" + marka,
                        "7870" + int32(1_100_000) + "740000".repeat(1_100_000))));
    }

    /** {@code body} with the one occurrence of {@code from} (hex) replaced by {@code to} (hex). */
    static byte[] replace(byte[] body, String from, String to) {
        String hex = HEX.formatHex(body);
        int at = indexOfAligned(hex, from, 0);
        if (at < 0 || indexOfAligned(hex, from, at + 2) >= 0) {
            throw new IllegalStateException("expected " + from + " once in " + hex);
        }
        return HEX.parseHex(hex.substring(0, at) + to + hex.substring(at + from.length()));
    }

    private static int indexOfAligned(String hex, String part, int from) {
        int at = hex.indexOf(part, from);
        while (at >= 0 && at % 2 != 0) {
            at = hex.indexOf(part, at + 1);
        }
        return at;
    }

    /** {@code value} as an unsigned base-128 varint (protostuff, kryo). */
    static String varint(int value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((value & ~0x7f) != 0) {
            out.write((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.write(value);
        return HEX.formatHex(out.toByteArray());
    }

    private static String int32(int value) {
        return String.format("%08x", value);
    }

    private static String ascii(String text) {
        return HEX.formatHex(text.getBytes(StandardCharsets.US_ASCII));
    }
}
