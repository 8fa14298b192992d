package io.jupiter.serialization.protostuff;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

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
    /** Eight bytes at a time, for the hash. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[MAX_LENGTH];
        }
    };

    private final Entry[] table = new Entry[SLOTS];

    private record Entry(byte[] utf8, String value) {
    }

    /**
     * Reads the {@code length} bytes of {@code buffer} at {@code start} as a UTF-8 string; the caller checked that
     * they are there and that {@code length <= MAX_LENGTH}. The buffer's indexes do not move.
     */
    String read(ByteBuf buffer, int start, int length) {
        // One copy into this thread's scratch array: a ByteBuf read checks its bounds and that the buffer is still
        // live every time, which cost more than the hashing when the bytes were read eight at a time. Other threads
        // (an application's, possibly virtual and one per call) get an array of their own rather than a thread-local.
        byte[] bytes = Thread.currentThread() instanceof FastThreadLocalThread ? SCRATCH.get() : new byte[length];
        buffer.getBytes(start, bytes, 0, length);
        int hash = length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            hash = 31 * hash + Long.hashCode((long) LONGS.get(bytes, i));
        }
        for (; i < length; i++) {
            hash = 31 * hash + bytes[i];
        }
        int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
        Entry entry = table[slot];
        if (entry != null && Arrays.equals(entry.utf8, 0, entry.utf8.length, bytes, 0, length)) {
            return entry.value;
        }
        byte[] utf8 = Arrays.copyOf(bytes, length);
        String value = new String(utf8, StandardCharsets.UTF_8);
        table[slot] = new Entry(utf8, value);
        return value;
    }
}
