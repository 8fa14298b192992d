package io.jupiter.serialization.protostuff;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Decodes the strings every request repeats (service group, name and version, method name, class names) without
 * allocating once they were seen: a fixed table, indexed by a hash of the UTF-8 bytes, remembers the last string
 * decoded for each slot and is reused when the bytes match. Only short strings are kept, so the table stays a few
 * tens of KB whatever comes from the wire; a collision just replaces the slot.
 *
 * <p>Shared by all threads without locks: a slot holds an immutable entry, published by a plain array store (an
 * entry's fields are final), and a thread that sees a stale or missing entry only decodes again.
 */
final class RepeatedStrings {

    /** Longer strings are decoded every time (their bytes are rarely worth keeping). */
    static final int MAX_LENGTH = 96;
    private static final int SLOTS = 1024;
    /** Eight bytes of an entry at a time, in the order {@link ByteBuf#getLong} reads them. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final Entry[] table = new Entry[SLOTS];

    private record Entry(byte[] utf8, String value) {
    }

    /**
     * Reads the {@code length} bytes of {@code buffer} at {@code start} as a UTF-8 string; the caller checked that
     * they are there and that {@code length <= MAX_LENGTH}. The buffer's indexes do not move.
     */
    String read(ByteBuf buffer, int start, int length) {
        // Eight bytes a read: each ByteBuf read checks its index and that the buffer is still live.
        int hash = length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            hash = 31 * hash + Long.hashCode(buffer.getLong(start + i));
        }
        for (; i < length; i++) {
            hash = 31 * hash + buffer.getByte(start + i);
        }
        int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
        Entry entry = table[slot];
        if (entry != null && matches(entry.utf8, buffer, start, length)) {
            return entry.value;
        }
        byte[] utf8 = new byte[length];
        buffer.getBytes(start, utf8);
        String value = new String(utf8, StandardCharsets.UTF_8);
        table[slot] = new Entry(utf8, value);
        return value;
    }

    private static boolean matches(byte[] utf8, ByteBuf buffer, int start, int length) {
        if (utf8.length != length) {
            return false;
        }
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            if ((long) LONGS.get(utf8, i) != buffer.getLong(start + i)) {
                return false;
            }
        }
        for (; i < length; i++) {
            if (utf8[i] != buffer.getByte(start + i)) {
                return false;
            }
        }
        return true;
    }
}
