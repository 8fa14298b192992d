package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.protostuff.ByteBufferInput;
import io.protostuff.LinkedBuffer;
import io.protostuff.ProtobufException;
import io.protostuff.ProtostuffIOUtil;
import io.protostuff.Schema;
import io.protostuff.runtime.RuntimeSchema;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteBufInput} reads what protostuff's own {@code ByteBufferInput} reads, to the same values, and fails
 * where it fails: compared on every field type, on unknown fields, on packed fields and on every truncation.
 */
class ByteBufInputTest {

    enum Colour { RED, GREEN }

    static final class Inner {
        String label;
        long count;

        @Override
        public boolean equals(Object o) {
            return o instanceof Inner i && Objects.equals(label, i.label) && count == i.count;
        }

        @Override
        public int hashCode() {
            return Objects.hash(label, count);
        }
    }

    static final class Everything {
        int smallInt;
        int negativeInt;
        long bigLong;
        long negativeLong;
        float aFloat;
        double aDouble;
        boolean flag;
        String ascii;
        String unicode;
        byte[] bytes;
        Colour colour;
        Inner inner;
        List<Inner> inners;
        int[] ints;
        Map<String, Integer> map;
        Object polymorphic;
        Object[] objects;
    }

    static final class Numbers {
        List<Integer> values;
    }

    /** The same fields but the last ones: what an older reader of a newer message knows. */
    static final class Fewer {
        int smallInt;
        int negativeInt;
        long bigLong;
    }

    private static Everything everything() {
        Everything e = new Everything();
        e.smallInt = 7;
        e.negativeInt = -123_456;
        e.bigLong = Long.MAX_VALUE - 3;
        e.negativeLong = Long.MIN_VALUE + 5;
        e.aFloat = -1.5f;
        e.aDouble = Math.PI;
        e.flag = true;
        e.ascii = "hello, protostuff";
        e.unicode = "日本語 — ünïcödé \uD83D\uDE00";
        e.bytes = new byte[] {0, -1, 127, -128, 42};
        e.colour = Colour.GREEN;
        e.inner = inner("one", 1);
        e.inners = new ArrayList<>(List.of(inner("a", -1), inner("b", 300_000_000_000L)));
        e.ints = new int[] {1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE};
        e.map = new LinkedHashMap<>(Map.of("k", 3));
        e.polymorphic = inner("poly", 9);
        e.objects = new Object[] {"s", 5L, inner("x", 0)};
        return e;
    }

    private static Inner inner(String label, long count) {
        Inner inner = new Inner();
        inner.label = label;
        inner.count = count;
        return inner;
    }

    private static <T> byte[] write(T value, Schema<T> schema) {
        return ProtostuffIOUtil.toByteArray(value, schema, LinkedBuffer.allocate(512));
    }

    /**
     * Reads {@code bytes} with our input three ways, which must agree: from a pooled direct buffer at an offset (as
     * bodies arrive), from a heap buffer's array at an offset, and as a Jupiter thread reads a small direct body
     * (copied to its scratch array first).
     */
    private static <T> T readOurs(byte[] bytes, Schema<T> schema) throws Exception {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length + 16);
        try {
            buf.writeZero(5).writeBytes(bytes).writeZero(3);
            T direct = readWith(new ByteBufInput(buf, 5, 5 + bytes.length), schema, 5 + bytes.length);
            assertThat(buf.readerIndex()).isZero();

            byte[] padded = new byte[bytes.length + 10];
            System.arraycopy(bytes, 0, padded, 7, bytes.length);
            ByteBuf heap = Unpooled.wrappedBuffer(padded).slice(7, bytes.length);
            assertThat(heap.arrayOffset()).isEqualTo(7);
            T fromArray = readWith(new ByteBufInput(heap, 0, bytes.length), schema, bytes.length);
            assertThat(fromArray).usingRecursiveComparison().isEqualTo(direct);

            if (bytes.length <= ByteBufInput.COPIED_MAX) {
                buf.setIndex(5, 5 + bytes.length);
                AtomicReference<Object> copied = new AtomicReference<>();
                Thread jupiterThread = new FastThreadLocalThread(() -> {
                    try {
                        copied.set(readWith(ByteBufInput.readable(buf), schema, bytes.length));
                    } catch (Exception e) {
                        copied.set(e);
                    }
                });
                jupiterThread.start();
                jupiterThread.join(10_000);
                assertThat(copied.get()).isNotNull().isNotInstanceOf(Exception.class)
                        .usingRecursiveComparison().isEqualTo(direct);
                assertThat(buf.readerIndex()).isEqualTo(5);
            }
            return direct;
        } finally {
            buf.release();
        }
    }

    private static <T> T readWith(ByteBufInput input, Schema<T> schema, int end) throws Exception {
        T message = schema.newMessage();
        schema.mergeFrom(input, message);
        input.checkLastTagWas(0);
        assertThat(input.position()).isEqualTo(end);
        return message;
    }

    private static <T> T readTheirs(byte[] bytes, Schema<T> schema) throws Exception {
        ByteBufferInput input = new ByteBufferInput(ByteBuffer.wrap(bytes), true);
        T message = schema.newMessage();
        schema.mergeFrom(input, message);
        input.checkLastTagWas(0);
        return message;
    }

    @Test
    void everyFieldTypeReadsAsProtostuffReadsIt() throws Exception {
        Schema<Everything> schema = RuntimeSchema.getSchema(Everything.class);
        byte[] bytes = write(everything(), schema);

        Everything ours = readOurs(bytes, schema);
        Everything theirs = readTheirs(bytes, schema);

        assertThat(ours).usingRecursiveComparison().isEqualTo(theirs);
        assertThat(ours.unicode).isEqualTo(everything().unicode);
        assertThat(ours.negativeInt).isEqualTo(-123_456);
        assertThat(ours.inners).containsExactly(inner("a", -1), inner("b", 300_000_000_000L));
        assertThat(Arrays.asList(ours.objects)).containsExactly("s", 5L, inner("x", 0));
    }

    @Test
    void unknownFieldsOfEveryWireTypeAreSkipped() throws Exception {
        byte[] bytes = write(everything(), RuntimeSchema.getSchema(Everything.class));
        Schema<Fewer> fewer = RuntimeSchema.getSchema(Fewer.class);

        Fewer ours = readOurs(bytes, fewer);

        assertThat(ours).usingRecursiveComparison().isEqualTo(readTheirs(bytes, fewer));
        assertThat(ours.negativeInt).isEqualTo(-123_456);
    }

    @Test
    void aPackedRepeatedFieldIsReadValueByValue() throws Exception {
        // Protostuff writes a List<Integer> one tagged value at a time; a protobuf writer may pack it: tag
        // (1 << 3 | 2), length, then the varints.
        byte[] packed = {0x0a, 4, 1, 2, (byte) 0x96, 1};
        Schema<Numbers> schema = RuntimeSchema.getSchema(Numbers.class);

        Numbers ours = readOurs(packed, schema);

        assertThat(ours.values).isEqualTo(readTheirs(packed, schema).values).containsExactly(1, 2, 150);
    }

    @Test
    void everyTruncationFailsOrReadsWhatProtostuffReads() throws Exception {
        Schema<Everything> schema = RuntimeSchema.getSchema(Everything.class);
        byte[] bytes = write(everything(), schema);
        for (int length = 0; length < bytes.length; length++) {
            byte[] prefix = Arrays.copyOf(bytes, length);
            Object theirs = outcome(() -> readTheirs(prefix, schema));
            Object ours = outcome(() -> readOurs(prefix, schema));
            if (theirs instanceof Exception) {
                assertThat(ours).as("prefix of %d bytes", length).isInstanceOf(Exception.class);
            } else {
                assertThat(ours).as("prefix of %d bytes", length).usingRecursiveComparison().isEqualTo(theirs);
            }
        }
    }

    @Test
    void aLengthPastTheEndIsRefusedBeforeAnythingIsAllocated() {
        // Field 8 (String ascii), length-delimited, claiming 2^28 bytes in a 6-byte body.
        byte[] lying = {(byte) 0x42, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1};
        Schema<Everything> schema = RuntimeSchema.getSchema(Everything.class);

        assertThatThrownBy(() -> readOurs(lying, schema)).isInstanceOf(ProtobufException.class)
                .hasMessageContaining("misreported its size");
    }

    @Test
    void aVarintOfMoreThanTenBytesIsMalformed() {
        byte[] endless = new byte[12];
        endless[0] = 0x08; // field 1, varint
        Arrays.fill(endless, 1, 12, (byte) 0xff);
        Schema<Everything> schema = RuntimeSchema.getSchema(Everything.class);

        assertThatThrownBy(() -> readOurs(endless, schema)).isInstanceOf(ProtobufException.class)
                .hasMessageContaining("malformed varint");
    }

    private interface Read {
        Object run() throws Exception;
    }

    private static Object outcome(Read read) {
        try {
            return read.run();
        } catch (Exception | AssertionError e) {
            return e instanceof Exception ? e : new IllegalStateException(e);
        }
    }
}
