package io.jupiter.serialization.protostuff;

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
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import vectors.Samples;
import vectors.model.VectorCheckedException;

class ProtostuffSerializerTest {

    private final Serializer serializer = new ProtostuffSerializer();

    static List<Object> argumentKinds() {
        return Samples.argumentKinds();
    }

    @Test
    void foundByServiceLoader() {
        assertThat(serializer.type()).isEqualTo(SerializerType.PROTOSTUFF);
        assertThat(Serializers.get(SerializerType.PROTOSTUFF)).isInstanceOf(ProtostuffSerializer.class);
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
        assertThat(received.getArgs()).isEqualTo(args);
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
    void emptyArgsAndAttachments() {
        Map<String, String> attachments = new HashMap<>();
        attachments.put("traceId", "4bf92f3577b34da6a3ce929d0e0e4736");
        attachments.put("spanId", "00f067aa0ba902b7");

        MessageWrapper received = Samples.roundTrip(serializer, Samples.request(new Object[0], attachments),
                MessageWrapper.class, true);

        assertThat(received.getArgs()).isEmpty();
        assertThat(received.getAttachments()).isEqualTo(attachments);
    }

    @Test
    void loneSurrogatesAreWrittenAsProtostuffDoes() {
        String odd = "a\uD800b\uDC00c";
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer();
        try {
            serializer.write(buf, new ResultWrapper(odd));
            // ResultWrapper #1 group, ID_STRING, length 9: a, ED A0 80, b, ED B0 80, c
            assertThat(ByteBufUtil.hexDump(buf)).isEqualTo("0b4a0961eda08062edb080630c");
        } finally {
            buf.release();
        }
    }

    @Test
    void nullArrayElementsAreCompactedAsIn131() {
        MessageWrapper received = Samples.roundTrip(serializer,
                Samples.request(new Object[] {"a", null, "c"}, null), MessageWrapper.class, false);
        assertThat(received.getArgs()).containsExactly("a", "c", null);
    }

    @Test
    void nullResultIsAnEmptyBody() {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer();
        try {
            serializer.write(buf, new ResultWrapper(null));
            assertThat(buf.readableBytes()).isZero();
            assertThat(serializer.read(buf, ResultWrapper.class).getResult()).isNull();
        } finally {
            buf.release();
        }
    }

    @Test
    void exceptionsKeepTypeAndMessage() {
        for (Throwable t : List.of(new IllegalStateException("boom"), new VectorCheckedException("checked"))) {
            t.getStackTrace(); // the JDK fills the field lazily; only a filled stack trace travels
            ResultWrapper received = Samples.roundTrip(serializer, new ResultWrapper(t), ResultWrapper.class, true);
            assertThat(received.getResult()).isInstanceOf(t.getClass());
            assertThat(((Throwable) received.getResult()).getMessage()).isEqualTo(t.getMessage());
            assertThat(((Throwable) received.getResult()).getStackTrace()).isNotEmpty();
        }
    }

    @Test
    void malformedBodiesFailWithSerializationException() {
        List<byte[]> bad = List.of(
                new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
                        (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff},
                new byte[] {0x0a, 0x7f, 0x41},          // appName claims 127 bytes, has 1
                new byte[] {0x0a, 0x07, 0x76, 0x65, 0x63}, // appName "vectors" cut short
                new byte[] {0x4e});                     // unknown field 9 with wire type 6, which does not exist
        for (byte[] bytes : bad) {
            assertThatThrownBy(() -> read(bytes, MessageWrapper.class))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining(MessageWrapper.class.getName());
        }
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
    }

    @Test
    void unserializableValueFailsWithSerializationException() {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer();
        try {
            buf.writeByte(1);
            List<Object> cyclic = new ArrayList<>();
            cyclic.add(cyclic);
            assertThatCode(() -> serializer.write(buf, new ResultWrapper(cyclic)))
                    .isInstanceOf(SerializationException.class);
            assertThat(buf.writerIndex()).as("a failed write leaves nothing behind").isEqualTo(1);
        } finally {
            buf.release();
        }
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
