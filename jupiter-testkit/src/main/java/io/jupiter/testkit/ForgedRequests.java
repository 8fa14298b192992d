package io.jupiter.testkit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Request bodies changed by hand, as a hostile peer would send them: envelope fields (app name, service, method)
 * repeated, out of order or unknown. Each starts from a body the real serializer wrote, so only the forged part is
 * hand-made. Protostuff bodies are fields in any order (tag, then value); a Hessian body is the
 * {@code MessageWrapper}'s class definition (its field names) followed by the instance (the values in that order).
 */
public final class ForgedRequests {

    /** Hessian 2: a compact int 0 to 15 is one byte, {@code 0x90 + n}; a compact object of definition 0 is 0x60. */
    private static final int HESSIAN_COMPACT_INT = 0x90;
    private static final int HESSIAN_FIRST_INSTANCE = 0x60;
    private static final List<String> HESSIAN_FIELDS = List.of("appName", "methodName", "metadata", "args",
            "attachments");

    private ForgedRequests() {
    }

    // ---- protostuff ----

    /** A protostuff string field: tag ({@code field}, length-delimited), varint length, UTF-8. */
    public static byte[] protostuffString(int field, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeVarint(out, field << 3 | 2);
        writeVarint(out, utf8.length);
        out.writeBytes(utf8);
        return out.toByteArray();
    }

    /** {@code body} with {@code fields} (whole fields: tag and value) written before and after it. */
    public static byte[] protostuff(byte[] before, byte[] body, byte[] after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(before);
        out.writeBytes(body);
        out.writeBytes(after);
        return out.toByteArray();
    }

    private static void writeVarint(ByteArrayOutputStream out, int value) {
        while ((value & ~0x7F) != 0) {
            out.write(value & 0x7F | 0x80);
            value >>>= 7;
        }
        out.write(value);
    }

    // ---- Hessian 2 ----

    /**
     * {@code body}, a request Hessian wrote (its class definition lists the five fields of a {@code MessageWrapper}),
     * with {@code firstNames} listed before them and {@code lastNames} after, and their values: {@code firstValues}
     * before the instance's first value, {@code lastValues} after its last.
     */
    public static byte[] hessian(byte[] body, List<String> firstNames, byte[] firstValues, List<String> lastNames,
                                 byte[] lastValues) {
        int appName = indexOf(body, hessianString(HESSIAN_FIELDS.get(0)));
        int afterNames = appName;
        for (String name : HESSIAN_FIELDS) {
            byte[] encoded = hessianString(name);
            if (indexOf(body, encoded) != afterNames) {
                throw new IllegalArgumentException("not a request's class definition with the five fields in order");
            }
            afterNames += encoded.length;
        }
        int count = HESSIAN_FIELDS.size() + firstNames.size() + lastNames.size();
        if ((body[appName - 1] & 0xFF) != HESSIAN_COMPACT_INT + HESSIAN_FIELDS.size() || count > 15
                || (body[afterNames] & 0xFF) != HESSIAN_FIRST_INSTANCE) {
            throw new IllegalArgumentException("not a request's first class definition, or too many fields");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(body, 0, appName - 1);
        out.write(HESSIAN_COMPACT_INT + count);
        firstNames.forEach(name -> out.writeBytes(hessianString(name)));
        out.write(body, appName, afterNames - appName);
        lastNames.forEach(name -> out.writeBytes(hessianString(name)));
        out.write(HESSIAN_FIRST_INSTANCE);
        out.writeBytes(firstValues);
        out.write(body, afterNames + 1, body.length - afterNames - 1);
        out.writeBytes(lastValues);
        return out.toByteArray();
    }

    /** A short Hessian 2 string (up to 31 bytes of UTF-8): its length in one byte, then the bytes. */
    public static byte[] hessianString(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > 31) {
            throw new IllegalArgumentException("a short string has at most 31 bytes: " + value);
        }
        byte[] out = new byte[utf8.length + 1];
        out[0] = (byte) utf8.length;
        System.arraycopy(utf8, 0, out, 1, utf8.length);
        return out;
    }

    /** A Hessian 2 list of one list of one list ... {@code depth} deep, around a null: 0x79 is a list of one. */
    public static byte[] hessianNestedList(int depth) {
        byte[] out = new byte[depth + 1];
        Arrays.fill(out, 0, depth, (byte) 0x79);
        out[depth] = 'N';
        return out;
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= bytes.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
