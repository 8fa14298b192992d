package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.EnvelopeException;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.testkit.suites.serialization.Samples;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.protostuff.ProtostuffIOUtil;
import io.protostuff.Schema;
import io.protostuff.runtime.RuntimeSchema;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The request's attachments and its {@code Object[]} of arguments are read by {@link LegacyNameInput} itself, not by
 * protostuff's map and array schemas (which make a wrapper for each): every body, the odd ones protostuff's own
 * format allows included, reads as protostuff alone reads it (the same attachments, the same arguments, or a failure
 * where it fails), by {@code read} and {@code readRequest}, on a Jupiter thread (its own input reused, one body after
 * another) and on any other; and the read limits hold for what is read so.
 */
class OwnMapAndArrayReadsTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final EnvelopeListener ANY = (appName, service, methodName) -> ArgumentTypes.ANY;

    /** An entry's fields: a key (field 1) and a value (field 2), each a string. */
    private static final String KEY = "0a016b";
    private static final String KEY_2 = "0a016a";
    private static final String VALUE = "120176";
    private static final String VALUE_2 = "120177";
    /** The start of an {@code Object[]} in the {@code args} field: its component class name, field 15. */
    private static final String OBJECT_ARRAY = "7a10" + HEX.formatHex("java.lang.Object".getBytes(
            StandardCharsets.US_ASCII));

    private final ProtostuffSerializer serializer = new ProtostuffSerializer(Samples.allowList());

    static Stream<Arguments> attachments() {
        String longValue = "1214" + HEX.formatHex("a value of 20 bytes.".getBytes(StandardCharsets.US_ASCII));
        return Stream.of(
                Arguments.of("a key and a value", map(entry(KEY, VALUE))),
                Arguments.of("two entries", map(entry(KEY, VALUE), entry(KEY_2, VALUE_2))),
                Arguments.of("a key twice, the second value wins", map(entry(KEY, VALUE), entry(KEY, VALUE_2))),
                Arguments.of("a value longer than the repeated ones", map(entry(KEY, longValue))),
                Arguments.of("no entries", map()),
                Arguments.of("many entries (kept hashed)", map(manyEntries(300))),
                Arguments.of("a null key (a value alone)", map(entry(VALUE))),
                Arguments.of("a null value (a key alone)", map(entry(KEY))),
                Arguments.of("an empty entry", map(entry())),
                Arguments.of("a value before its key", map(entry(VALUE, KEY))),
                Arguments.of("a value before its key, then an empty entry", map(entry(VALUE, KEY), entry())),
                Arguments.of("a value before its key, then a value alone", map(entry(VALUE, KEY), entry(VALUE_2))),
                Arguments.of("a value before its key, then a key and a value",
                        map(entry(VALUE, KEY), entry(KEY_2, VALUE_2))),
                Arguments.of("the attachments twice, merged", map(entry(KEY, VALUE)) + map(entry(KEY_2, VALUE_2),
                        entry(KEY, VALUE_2))),
                Arguments.of("an entry's key twice", map(entry(KEY, KEY_2, VALUE))),
                Arguments.of("an entry's value twice", map(entry(KEY, VALUE, VALUE_2))),
                Arguments.of("a value, its key, a value again", map(entry(VALUE, KEY, VALUE_2))),
                Arguments.of("an entry's unknown field", map(entry(KEY, "1801", VALUE))),
                Arguments.of("a map's unknown field", "2b" + "1001" + "2c"),
                Arguments.of("an entry that is a string", "2b" + "0a016b" + "2c"),
                Arguments.of("a key longer than the body", map(entry("0a7f6b"))),
                Arguments.of("an entry cut at the body's end", "2b0b0a016b"),
                Arguments.of("a map cut at the body's end", "2b" + entry(KEY, VALUE)),
                Arguments.of("an entry ended by the map's end tag", "2b0b0a016b2c"));
    }

    static Stream<Arguments> arguments() {
        return Stream.of(
                Arguments.of("one string", new Object[] {"x"}),
                Arguments.of("none", new Object[0]),
                Arguments.of("nulls, moved to the end", new Object[] {"a", null, "c", null}),
                Arguments.of("only nulls", new Object[] {null, null}),
                Arguments.of("every kind", Samples.argumentKinds().toArray()),
                Arguments.of("arrays of arrays", new Object[][] {{"a"}, {"b", 1}, {}}),
                Arguments.of("a String[] (left to protostuff)", new String[] {"s", "t"}),
                Arguments.of("an Integer[] (left to protostuff)", new Integer[] {1, 2}),
                Arguments.of("an array inside", new Object[] {new Object[] {"n", new Object[] {2L}}}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attachments")
    void attachmentsReadAsProtostuffReadsThem(String what, String attachments) throws Exception {
        byte[] body = HEX.parseHex(HEX.formatHex(request(new Object[] {"x"})) + attachments);
        assertReadAsProtostuffReadsIt(body);
        JupiterThread.run(() -> {
            assertReadAsProtostuffReadsIt(body);
            assertReadAsProtostuffReadsIt(body); // the thread's own input again
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arguments")
    void argumentsReadAsProtostuffReadsThem(String what, Object[] args) throws Exception {
        byte[] body = HEX.parseHex(HEX.formatHex(request(args)) + map(entry(KEY, VALUE)));
        assertReadAsProtostuffReadsIt(body);
        JupiterThread.run(() -> {
            assertReadAsProtostuffReadsIt(body);
            assertReadAsProtostuffReadsIt(body);
        });
    }

    @Test
    void oddArgumentArraysReadAsProtostuffReadsThem() throws Exception {
        String two = HEX.formatHex(request(new Object[] {"a", "b"}));
        String a = "0b4a01610c";
        String b = "0b4a01620c";
        String header = OBJECT_ARRAY + "18021001";
        assertThat(two).as("the body's bytes").contains(header + a + b + "24");
        String args = "23" + OBJECT_ARRAY;
        // protostuff merges the second into the message; a request names its arguments once (EnvelopeException)
        byte[] twice = HEX.parseHex(two + two.substring(two.indexOf(args)));
        assertReadAsProtostuffReadsIt(twice, false);
        JupiterThread.run(() -> assertReadAsProtostuffReadsIt(twice, false));
        String[] bodies = {
            two.replace(header + a + b, OBJECT_ARRAY + "18031001" + a + "1001" + b), // a run of one null between
            two.replace(header + a + b, OBJECT_ARRAY + "18041001" + a + "1002" + b), // of two
            two.replace(header + a + b, OBJECT_ARRAY + "18011001" + a + b), // more elements than its length
            two.replace(header + a + b, header + a + "2801" + b), // an unknown field among the elements
            two.replace(header, OBJECT_ARRAY + "1001" + "1802"), // dimensions before the length
            two.replace(header + a + b, header + a), // fewer elements than its length
            two.replace(header + a + b, header + a + "1001" + b), // nulls past its length
            two.substring(0, two.indexOf(b) + 4), // cut inside an element
        };
        for (String hex : bodies) {
            byte[] body = HEX.parseHex(hex);
            assertReadAsProtostuffReadsIt(body);
            JupiterThread.run(() -> {
                assertReadAsProtostuffReadsIt(body);
                assertReadAsProtostuffReadsIt(body);
            });
        }
    }

    @Test
    void anArgumentArrayLongerThanTheBodyIsRefusedBeforeItIsMade() {
        String body = HEX.formatHex(request(new Object[] {"a"}));
        assertThat(body).contains(OBJECT_ARRAY + "18011001");
        byte[] longer = HEX.parseHex(body.replace(OBJECT_ARRAY + "1801", OBJECT_ARRAY + "18ffffffff07"));
        assertThatThrownBy(() -> read(longer)).isInstanceOf(ReadLimitException.class)
                .hasMessageContaining("array of length 2147483647");
        byte[] flat = HEX.parseHex(body.replace(OBJECT_ARRAY + "18011001", OBJECT_ARRAY + "18011000"));
        assertThatThrownBy(() -> read(flat)).isInstanceOf(ReadLimitException.class)
                .hasMessageContaining("array of 0 dimensions");
    }

    @Test
    void theArgumentsAndTheAttachmentsEntriesCountTowardsTheDepth() {
        byte[] attachmentsOnly = Samples.encode(serializer, new MessageWrapper("app",
                new ServiceMetadata("g", "org.example.Hello", "1.0.0"), "hello", null, Map.of("k", "v")));
        byte[] argumentsOnly = request(new Object[] {"x"});
        int references = ReadLimits.defaults().maxReferences();
        // The root is depth 0; the map and the array are 1; an entry and an element are 2.
        ProtostuffSerializer shallow = new ProtostuffSerializer(Samples.allowList(), ReadLimits.of(1, references));
        ProtostuffSerializer enough = new ProtostuffSerializer(Samples.allowList(), ReadLimits.of(2, references));
        for (byte[] body : new byte[][] {attachmentsOnly, argumentsOnly}) {
            assertThatThrownBy(() -> read(shallow, body)).isInstanceOf(ReadLimitException.class)
                    .hasMessageContaining("values nested deeper than 1");
            assertThat(read(enough, body).getMethodName()).isEqualTo("hello");
        }
        assertThat(read(enough, attachmentsOnly).getAttachments()).isEqualTo(Map.of("k", "v"));
        assertThat(read(enough, argumentsOnly).getArgs()).containsExactly("x");
    }

    @Test
    void aJupiterThreadsInputHoldsNoArgumentsAfterARead() throws Exception {
        JupiterThread.run(() -> {
            MessageWrapper read = read(request(new Object[] {"kept?"}));
            LegacyNameInput own = LegacyNameInput.of(Unpooled.EMPTY_BUFFER, Samples.allowList(),
                    ReadLimits.defaults(), null);
            try {
                assertThat(own).extracting("argumentArray").isNotNull()
                        .extracting("array").isNull();
            } finally {
                own.done();
            }
            assertThat(read.getArgs()).containsExactly("kept?");
        });
    }

    private void assertReadAsProtostuffReadsIt(byte[] body) {
        assertReadAsProtostuffReadsIt(body, true);
    }

    /** {@code asRequest}: {@code readRequest} reads it as {@code read} does, else it refuses it. */
    private void assertReadAsProtostuffReadsIt(byte[] body, boolean asRequest) {
        MessageWrapper expected;
        try {
            expected = byProtostuff(body);
        } catch (Exception | Error e) {
            assertThatThrownBy(() -> read(body)).as("protostuff fails with %s", e)
                    .isInstanceOf(SerializationException.class);
            assertThatThrownBy(() -> readRequest(body)).isInstanceOf(SerializationException.class);
            return;
        }
        assertSameRequest(read(body), expected);
        if (asRequest) {
            assertSameRequest(readRequest(body), expected);
        } else {
            assertThatThrownBy(() -> readRequest(body)).isInstanceOf(EnvelopeException.class);
        }
    }

    private void assertSameRequest(MessageWrapper read, MessageWrapper expected) {
        assertThat(read.getAttachments()).isEqualTo(expected.getAttachments());
        assertThat(read.getArgs()).hasSameClassAs(expected.getArgs()).hasSameSizeAs(expected.getArgs());
        // The same values: the same bytes when written again (the arguments alone: a map's order may differ).
        byte[] again = Samples.encode(serializer, argumentsOf(expected));
        assertThat(Samples.encode(serializer, argumentsOf(read))).isEqualTo(again);
    }

    private static MessageWrapper argumentsOf(MessageWrapper request) {
        return new MessageWrapper(null, null, null, request.getArgs(), null);
    }

    /** What protostuff alone reads: its runtime schema and its own input, no Jupiter code. */
    private static MessageWrapper byProtostuff(byte[] body) {
        Schema<MessageWrapper> schema = RuntimeSchema.getSchema(MessageWrapper.class);
        MessageWrapper message = schema.newMessage();
        ProtostuffIOUtil.mergeFrom(body, message, schema);
        return message;
    }

    private byte[] request(Object[] args) {
        return Samples.encode(serializer, new MessageWrapper("app", new ServiceMetadata("g", "org.example.Hello",
                "1.0.0"), "hello", args, null));
    }

    /** {@code count} entries of distinct keys, some with the same value. */
    private static String[] manyEntries(int count) {
        String[] entries = new String[count];
        for (int i = 0; i < count; i++) {
            String key = HEX.formatHex(String.format("key%03d", i).getBytes(StandardCharsets.US_ASCII));
            entries[i] = entry("0a06" + key, i % 2 == 0 ? VALUE : VALUE_2);
        }
        return entries;
    }

    private static String entry(String... fields) {
        return "0b" + String.join("", fields) + "0c";
    }

    /** The attachments, field 5 of the request, as a group of entries. */
    private static String map(String... entries) {
        return "2b" + String.join("", entries) + "2c";
    }

    private MessageWrapper read(byte[] body) {
        return read(serializer, body);
    }

    private static MessageWrapper read(ProtostuffSerializer serializer, byte[] body) {
        ByteBuf buffer = Unpooled.directBuffer(body.length).writeBytes(body);
        try {
            return serializer.read(buffer, MessageWrapper.class);
        } finally {
            buffer.release();
        }
    }

    private MessageWrapper readRequest(byte[] body) {
        ByteBuf buffer = Unpooled.wrappedBuffer(body);
        try {
            return serializer.readRequest(buffer, ANY);
        } finally {
            buffer.release();
        }
    }

}
