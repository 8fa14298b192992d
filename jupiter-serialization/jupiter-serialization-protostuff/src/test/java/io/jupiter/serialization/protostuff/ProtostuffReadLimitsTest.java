package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.serialization.ReadLimitException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import vectors.Vectors;

/**
 * Array lengths of arrays whose type a field declares (protostuff's {@code ArraySchemas}: the length is field 1 of
 * the array's group) are charged to the body's budget before protostuff allocates. The polymorphic array wrapper
 * (an array in an {@code Object} slot) is covered end to end by {@code BoundedDeserializationTest} in jupiter-rpc.
 */
class ProtostuffReadLimitsTest {

    /** Fields 1, 2 and 3: groups 0b, 13 and 1b. */
    static final class Holder {
        int[] ints;
        String[] names;
        Integer[] boxed;
        long[][] grid;
    }

    private static final HexFormat HEX = HexFormat.of();
    private final ProtostuffSerializer serializer = new ProtostuffSerializer(Vectors.allowList());

    @Test
    void aPrimitiveArrayLongerThanTheBodyIsRefusedBeforeAllocating() {
        assertRefused(patch(holder(), "0b0803", "0b08ffffffff07"), "array of length 2147483647");
    }

    @Test
    void aStringArrayLongerThanTheBodyIsRefused() {
        assertRefused(patch(holder(), "130802", "1308ffffffff07"), "array of length 2147483647");
    }

    @Test
    void aNegativeLengthIsReadAsBoxedAndChargedToo() {
        // -2^31 as protostuff's int32 varint; boxed arrays declare -n-1, so this asks for 2^31-1 elements.
        assertRefused(patch(holder(), "1b0801", "1b0880808080f8ffffffff01"), "array of length 2147483647");
    }

    @Test
    void validArraysAreReadAsBefore() {
        Holder holder = new Holder();
        holder.ints = new int[100_000];
        holder.names = new String[] {"", "", ""};
        holder.boxed = new Integer[] {1, 2};
        holder.grid = new long[][] {{1, 2}, {3}}; // its component type travels by name: "long"
        ByteBuf body = Unpooled.buffer();
        serializer.write(body, holder);
        Holder read = serializer.read(body, Holder.class);
        assertThat(read.ints).hasSize(100_000);
        assertThat(read.names).containsExactly("", "", "");
        assertThat(read.boxed).containsExactly(1, 2);
        assertThat(read.grid).isDeepEqualTo(new long[][] {{1, 2}, {3}});
    }

    private byte[] holder() {
        Holder holder = new Holder();
        holder.ints = new int[] {5, 6, 7};
        holder.names = new String[] {"n1", "n2"};
        holder.boxed = new Integer[] {9};
        ByteBuf body = Unpooled.buffer();
        serializer.write(body, holder);
        byte[] bytes = new byte[body.readableBytes()];
        body.readBytes(bytes);
        return bytes;
    }

    private static byte[] patch(byte[] body, String from, String to) {
        String hex = HEX.formatHex(body);
        assertThat(hex).as("the body's bytes").startsWith("0b0803").contains(from);
        return HEX.parseHex(hex.replaceFirst(from, to));
    }

    private void assertRefused(byte[] body, String message) {
        assertThatThrownBy(() -> serializer.read(Unpooled.wrappedBuffer(body), Holder.class))
                .isInstanceOf(ReadLimitException.class).hasMessageContaining(message);
    }
}
