package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RepeatedStringsTest {

    @Test
    void theSameBytesGiveTheSameStringWhereverTheyAre() {
        RepeatedStrings strings = new RepeatedStrings();
        ByteBuf first = Unpooled.wrappedBuffer("xx-org.example.Service-yy".getBytes(StandardCharsets.UTF_8));
        ByteBuf second = Unpooled.directBuffer(19).writeBytes("org.example.Service".getBytes(StandardCharsets.UTF_8));
        try {
            String a = strings.read(first, 3, 19);
            String b = strings.read(second, 0, 19);

            assertThat(a).isEqualTo("org.example.Service");
            assertThat(b).isSameAs(a);
            assertThat(first.readerIndex()).isZero();
            assertThat(second.readerIndex()).isZero();
        } finally {
            first.release();
            second.release();
        }
    }

    @Test
    void differentBytesNeverShareAString() {
        RepeatedStrings strings = new RepeatedStrings();
        // Far more distinct strings than slots: every slot is overwritten several times.
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 5000; i++) {
                String expected = "méthode-" + i;
                byte[] utf8 = expected.getBytes(StandardCharsets.UTF_8);
                assertThat(strings.read(Unpooled.wrappedBuffer(utf8), 0, utf8.length)).isEqualTo(expected);
            }
        }
    }

    @Test
    void stringsThatDifferInOneByteAnywhereAreToldApart() {
        // Bytes are hashed and compared eight at a time, then one at a time: a difference in either part counts.
        RepeatedStrings strings = new RepeatedStrings();
        for (int length = 1; length <= 40; length++) {
            String base = "abcdefghijklmnopqrstuvwxyz0123456789ABCD".substring(0, length);
            for (int position = 0; position < length; position++) {
                char[] chars = base.toCharArray();
                chars[position] = '_';
                String variant = new String(chars);
                assertThat(read(strings, base)).isEqualTo(base);
                assertThat(read(strings, variant)).isEqualTo(variant);
                assertThat(read(strings, base)).isEqualTo(base);
            }
        }
    }

    @Test
    void onJupitersOwnThreadsAShorterStringAfterALongerOneReadsOnlyItsOwnBytes() throws Exception {
        // Jupiter's threads copy the bytes into a scratch array kept between reads: what a longer string left in it
        // must not reach the next one's hash or comparison.
        RepeatedStrings strings = new RepeatedStrings();
        JupiterThread.run(() -> {
            String longer = "x".repeat(RepeatedStrings.MAX_LENGTH);
            for (int length = RepeatedStrings.MAX_LENGTH; length >= 1; length--) {
                String value = longer.substring(0, length - 1) + "y";
                assertThat(read(strings, longer)).isEqualTo(longer);
                assertThat(read(strings, value)).isEqualTo(value);
                assertThat(read(strings, value)).isSameAs(read(strings, value));
            }
        });
    }

    private static String read(RepeatedStrings strings, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        ByteBuf buffer = Unpooled.directBuffer(utf8.length + 5).writeBytes(new byte[5]).writeBytes(utf8);
        try {
            return strings.read(buffer, 5, utf8.length);
        } finally {
            buffer.release();
        }
    }

    @Test
    void aRequestsEnvelopeStringsAreSharedAcrossReadsAndItsArgumentsAreNot() {
        ProtostuffSerializer serializer = new ProtostuffSerializer();
        MessageWrapper first = roundTrip(serializer, "payload-1");
        MessageWrapper second = roundTrip(serializer, "payload-1");

        assertThat(second.getMetadata().getGroup()).isEqualTo("group-a").isSameAs(first.getMetadata().getGroup());
        assertThat(second.getMetadata().getServiceProviderName()).isEqualTo("org.example.Hello")
                .isSameAs(first.getMetadata().getServiceProviderName());
        assertThat(second.getMetadata().getVersion()).isSameAs(first.getMetadata().getVersion());
        assertThat(second.getMethodName()).isEqualTo("hello").isSameAs(first.getMethodName());
        assertThat(second.getAppName()).isEqualTo("app").isSameAs(first.getAppName());
        assertThat(second.getArgs()).containsExactly("payload-1", 42L);
        assertThat(second.getArgs()[0]).isNotSameAs(first.getArgs()[0]);
        assertThat(second.getAttachments()).containsEntry("k", "v");
    }

    @Test
    void attachmentKeysAndShortValuesAreSharedAcrossReadsButNotLongValuesNorAMapArgument() {
        ProtostuffSerializer serializer = new ProtostuffSerializer();
        String longValue = "trace-0123456789abcdef";
        Map<String, String> attachments = Map.of("jupiter.timeout", "3000", "trace", longValue);
        MessageWrapper first = roundTrip(serializer, new Object[] {new HashMap<>(Map.of("mk", "mv"))},
                attachments);
        MessageWrapper second = roundTrip(serializer, new Object[] {new HashMap<>(Map.of("mk", "mv"))},
                attachments);

        assertThat(second.getAttachments()).isEqualTo(attachments);
        assertThat(keyOf(second.getAttachments(), "jupiter.timeout"))
                .isSameAs(keyOf(first.getAttachments(), "jupiter.timeout"));
        assertThat(second.getAttachments().get("jupiter.timeout"))
                .isSameAs(first.getAttachments().get("jupiter.timeout"));
        assertThat(second.getAttachments().get("trace")).isNotSameAs(first.getAttachments().get("trace"));
        // A map among the arguments is the caller's data: its strings are decoded anew every time.
        Map<?, ?> firstArgument = (Map<?, ?>) first.getArgs()[0];
        Map<?, ?> secondArgument = (Map<?, ?>) second.getArgs()[0];
        assertThat(secondArgument).isEqualTo(Map.of("mk", "mv"));
        assertThat(secondArgument.get("mk")).isNotSameAs(firstArgument.get("mk"));
    }

    @Test
    void attachmentsAreReadIntoAnAttachmentMapWhateverTheirNumber() {
        ProtostuffSerializer serializer = new ProtostuffSerializer();
        for (int entries : new int[] {1, 3, 4, 40}) {
            Map<String, String> attachments = new HashMap<>();
            for (int i = 0; i < entries; i++) {
                attachments.put("key-" + i, "value-" + i);
            }
            MessageWrapper read = roundTrip(serializer, new Object[] {"x"}, attachments);
            assertThat(read.getAttachments()).isInstanceOf(AttachmentMap.class).isEqualTo(attachments);
            read.getAttachments().put("added", "later"); // changeable, as the HashMap it replaces
            assertThat(read.getAttachments()).hasSize(entries + 1);
        }
    }

    private static Object keyOf(Map<String, String> map, String key) {
        return map.keySet().stream().filter(key::equals).findFirst().orElseThrow();
    }

    private static MessageWrapper roundTrip(ProtostuffSerializer serializer, Object[] args,
                                            Map<String, String> attachments) {
        MessageWrapper request = new MessageWrapper("app", new ServiceMetadata("group-a", "org.example.Hello", "1.0.0"),
                "hello", args, attachments);
        ByteBuf buffer = Unpooled.directBuffer();
        try {
            serializer.write(buffer, request);
            return serializer.read(buffer, MessageWrapper.class);
        } finally {
            buffer.release();
        }
    }

    private static MessageWrapper roundTrip(ProtostuffSerializer serializer, String argument) {
        return roundTrip(serializer, new Object[] {argument, 42L}, Map.of("k", "v"));
    }
}
