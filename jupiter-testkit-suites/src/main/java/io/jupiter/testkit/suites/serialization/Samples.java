package io.jupiter.testkit.suites.serialization;

import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.testkit.suites.serialization.model.Color;
import io.jupiter.testkit.suites.serialization.model.User;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/** Values for serializer round trips, and a helper that writes and reads them through real Netty buffers. */
public final class Samples {

    /** A 1 MiB string of mixed ASCII and CJK characters. */
    public static final String BIG_STRING = bigString();

    private Samples() {
    }

    /**
     * A strict allow-list trusting the samples' model classes (the package of {@link User}): they travel in
     * {@code Object}-typed slots here, and no service interface is registered that would make them trusted. Give it
     * to the serializer under test.
     *
     * @return a new strict allow-list trusting {@link User}'s package
     */
    public static ClassAllowList allowList() {
        return ClassAllowList.create(ClassAllowList.Mode.STRICT).trustPackage(User.class.getPackageName());
    }

    /** One value of every argument kind the serializers are expected to carry (no nulls). */
    public static List<Object> argumentKinds() {
        List<Object> values = new ArrayList<>();
        values.add(true);
        values.add((byte) 7);
        values.add('c');
        values.add((short) -3);
        values.add(42);
        values.add(Integer.MIN_VALUE);
        values.add(6L);
        values.add(Long.MAX_VALUE);
        values.add(1.5f);
        values.add(-2.5d);
        values.add("ascii");
        values.add("non-ASCII: 中文 ünïcødé \uD83D\uDE00");
        values.add("");
        values.add(new byte[] {1, 2, -3});
        values.add(new int[] {1, 2, Integer.MIN_VALUE});
        values.add(new String[] {"a", "b"});
        values.add(new Object[] {1, "z"});
        values.add(new ArrayList<>(List.of("x", "y")));
        values.add(new LinkedList<>(List.of(1L, 2L)));
        values.add(new HashSet<>(List.of(3)));
        values.add(new HashMap<>(Map.of("k", 1)));
        values.add(new LinkedHashMap<>(Map.of("lk", "v")));
        values.add(new TreeMap<>(Map.of("b", 2, "a", 1)));
        values.add(Color.GREEN);
        values.add(new User(9, "bob", new ArrayList<>(List.of("t1", "t2"))));
        values.add(new BigDecimal("12345.6789"));
        values.add(new BigDecimal("123456789012345678901234567890.123"));
        values.add(new BigInteger("-123456789012345678901234567890"));
        values.add(new Date(1_700_000_000_123L));
        return values;
    }

    /** A request carrying {@code args} and {@code attachments}. */
    public static MessageWrapper request(Object[] args, Map<String, String> attachments) {
        return new MessageWrapper("app", new ServiceMetadata("test", "vectors", "1.0.0"), "call", args, attachments);
    }

    /** Writes {@code value} into a buffer pooled buffer (direct or heap), reads it back, releases. */
    public static <T> T roundTrip(Serializer serializer, Object value, Class<T> type, boolean direct) {
        ByteBuf buf = direct ? PooledByteBufAllocator.DEFAULT.directBuffer(16)
                : PooledByteBufAllocator.DEFAULT.heapBuffer(16);
        try {
            buf.writeByte(0x5a); // the serializer must append, not overwrite
            buf.skipBytes(1);
            serializer.write(buf, value);
            T result = serializer.read(buf, type);
            if (buf.isReadable()) {
                throw new AssertionError(buf.readableBytes() + " bytes left unread");
            }
            return result;
        } finally {
            buf.release();
        }
    }

    /**
     * Writes {@code value} with {@code serializer} into a pooled heap buffer and returns the bytes (the buffer is
     * released).
     *
     * @param serializer the serializer
     * @param value      a {@code MessageWrapper}, a {@code ResultWrapper} or any other value it can write
     * @return the body
     */
    public static byte[] encode(Serializer serializer, Object value) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer(64);
        try {
            serializer.write(buf, value);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** Deterministic pseudo-random bytes. */
    public static byte[] garbage(long seed, int length) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static String bigString() {
        StringBuilder sb = new StringBuilder(1 << 20);
        String chunk = "jupiter-中文-";
        while (sb.length() < (1 << 20)) {
            sb.append(chunk);
        }
        sb.setLength(1 << 20);
        return sb.toString();
    }
}
