package io.jupiter.serialization.java;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import vectors.Samples;
import vectors.model.VectorCheckedException;

class JavaSerializerTest {

    private final Serializer serializer = new JavaSerializer();

    static List<Object> argumentKinds() {
        return Samples.argumentKinds();
    }

    @Test
    void foundByServiceLoader() {
        assertThat(serializer.type()).isEqualTo(SerializerType.JAVA);
        assertThat(Serializers.get(SerializerType.JAVA)).isInstanceOf(JavaSerializer.class);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void requestWithEveryArgumentKind(boolean direct) {
        Object[] args = Samples.argumentKinds().toArray();
        MessageWrapper sent = Samples.request(args, null);

        MessageWrapper received = Samples.roundTrip(serializer, sent, MessageWrapper.class, direct);

        assertThat(received.getAppName()).isEqualTo("app");
        assertThat(received.getMetadata()).isEqualTo(sent.getMetadata());
        assertThat(received.getMethodName()).isEqualTo("call");
        assertThat(received.getArgs()).hasSameSizeAs(args);
        for (int i = 0; i < args.length; i++) {
            assertThat(received.getArgs()[i]).as("arg %d", i).isEqualTo(args[i]);
        }
        assertThat(received.getAttachments()).isNull();
    }

    @ParameterizedTest
    @MethodSource("argumentKinds")
    void resultOfEveryKind(Object value) {
        for (boolean direct : new boolean[] {true, false}) {
            ResultWrapper received = Samples.roundTrip(serializer, new ResultWrapper(value), ResultWrapper.class, direct);
            assertThat(received.getResult()).isEqualTo(value);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void oneMebibyteString(boolean direct) {
        MessageWrapper received = Samples.roundTrip(serializer,
                Samples.request(new Object[] {Samples.BIG_STRING}, null), MessageWrapper.class, direct);
        assertThat(received.getArgs()).containsExactly(Samples.BIG_STRING);

        ResultWrapper result = Samples.roundTrip(serializer, new ResultWrapper(Samples.BIG_STRING),
                ResultWrapper.class, direct);
        assertThat(result.getResult()).isEqualTo(Samples.BIG_STRING);
    }

    @Test
    void emptyArgsNullsAndAttachments() {
        Map<String, String> attachments = new HashMap<>();
        attachments.put("traceId", "4bf92f3577b34da6a3ce929d0e0e4736");
        attachments.put("spanId", "00f067aa0ba902b7");

        MessageWrapper received = Samples.roundTrip(serializer, Samples.request(new Object[0], attachments),
                MessageWrapper.class, true);
        assertThat(received.getArgs()).isEmpty();
        assertThat(received.getAttachments()).isEqualTo(attachments);

        MessageWrapper withNulls = Samples.roundTrip(serializer,
                Samples.request(new Object[] {"a", null, "c"}, null), MessageWrapper.class, false);
        assertThat(withNulls.getArgs()).containsExactly("a", null, "c");
    }

    @Test
    void nullResult() {
        ResultWrapper received = Samples.roundTrip(serializer, new ResultWrapper(null), ResultWrapper.class, true);
        assertThat(received.getResult()).isNull();
    }

    @Test
    void exceptionsKeepTypeAndMessage() {
        for (Throwable t : List.of(new IllegalStateException("boom"), new VectorCheckedException("checked"))) {
            ResultWrapper received = Samples.roundTrip(serializer, new ResultWrapper(t), ResultWrapper.class, true);
            assertThat(received.getResult()).isInstanceOf(t.getClass());
            assertThat(((Throwable) received.getResult()).getMessage()).isEqualTo(t.getMessage());
            assertThat(((Throwable) received.getResult()).getStackTrace()).isEqualTo(t.getStackTrace());
        }
    }

    @Test
    void writesLegacyClassNamesAndSerialVersionUids() {
        byte[] bytes = vectors.VectorBodies.encode(serializer,
                Samples.request(new Object[] {"x"}, null));
        String text = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(text).contains("org.jupiter.rpc.model.metadata.MessageWrapper")
                .contains("Lorg/jupiter/rpc/model/metadata/ServiceMetadata;")
                .contains("org.jupiter.rpc.model.metadata.ServiceMetadata")
                .doesNotContain("io.jupiter").doesNotContain("io/jupiter");
        assertThat(io.netty.buffer.ByteBufUtil.hexDump(bytes)).contains("0e039453bedfbab4", "845f605187099cbd");
    }

    @Test
    void theFilterIsApplied() {
        Serializer strict = new JavaSerializer(info -> info.serialClass() == vectors.model.User.class
                ? java.io.ObjectInputFilter.Status.REJECTED : java.io.ObjectInputFilter.Status.UNDECIDED);
        assertThat(Samples.roundTrip(strict, new ResultWrapper("fine"), ResultWrapper.class, true).getResult())
                .isEqualTo("fine");
        assertThatThrownBy(() -> Samples.roundTrip(strict,
                new ResultWrapper(new vectors.model.User(1, "u", null)), ResultWrapper.class, true))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("REJECTED");
    }

    @Test
    void malformedBodiesFailWithSerializationException() {
        List<byte[]> bad = List.of(
                new byte[] {(byte) 0xac, (byte) 0xed},                 // header cut short
                new byte[] {(byte) 0xac, (byte) 0xed, 0x00, 0x05},     // no object
                new byte[] {(byte) 0xac, (byte) 0xed, 0x00, 0x05, 0x74, 0x00, 0x09, 'x'}, // string cut short
                new byte[] {(byte) 0xac, (byte) 0xed, 0x00, 0x05, 0x72, 0x00, 0x05, 'n', 'o', '.', 'n', 'o',
                        0, 0, 0, 0, 0, 0, 0, 1, 0x02, 0x00, 0x00, 0x78, 0x70}, // descriptor of unknown class
                new byte[] {0x01, 0x02, 0x03});                         // not a serialization stream
        for (byte[] bytes : bad) {
            assertThatThrownBy(() -> read(bytes, MessageWrapper.class))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining(MessageWrapper.class.getName());
        }
    }

    @Test
    void aValueOfAnotherTypeIsRejected() {
        byte[] bytes = vectors.VectorBodies.encode(serializer, "just a string");
        assertThatThrownBy(() -> read(bytes, MessageWrapper.class))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("java.lang.String");
    }

    @Test
    void randomGarbageNeverEscapesAsAnotherException() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            for (int seed = 0; seed < 2000; seed++) {
                byte[] bytes = Samples.garbage(seed, 1 + seed % 97);
                for (Class<?> type : List.of(MessageWrapper.class, ResultWrapper.class)) {
                    Throwable thrown = catchThrowable(() -> read(bytes, type));
                    if (thrown != null) {
                        assertThat(thrown).as("seed %d", seed).isInstanceOf(SerializationException.class);
                    }
                }
            }
        });
        // The thread's streams still work after all those failures.
        assertThat(Samples.roundTrip(serializer, new ResultWrapper("ok"), ResultWrapper.class, true).getResult())
                .isEqualTo("ok");
    }

    @Test
    void unserializableValueFailsWithSerializationException() {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer();
        try {
            buf.writeByte(1);
            assertThatCode(() -> serializer.write(buf, new ResultWrapper(new NotSerializable())))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining(ResultWrapper.class.getName());
            assertThat(buf.writerIndex()).as("a failed write leaves nothing behind").isEqualTo(1);
        } finally {
            buf.release();
        }
    }

    private static final class NotSerializable {
    }

    private <T> T read(byte[] bytes, Class<T> type) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer(bytes.length);
        try {
            buf.writeBytes(bytes);
            return serializer.read(buf, type);
        } finally {
            buf.release();
        }
    }
}
