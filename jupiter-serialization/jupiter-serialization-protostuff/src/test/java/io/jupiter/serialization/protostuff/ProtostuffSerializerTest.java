package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.legacy.JupiterServiceNotFoundException;
import io.jupiter.testkit.ForgedRequests;
import io.jupiter.testkit.suites.serialization.Samples;
import io.jupiter.testkit.suites.serialization.SerializerSuite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.protostuff.LinkedBuffer;
import io.protostuff.ProtostuffIOUtil;
import io.protostuff.Schema;
import io.protostuff.runtime.RuntimeSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProtostuffSerializerTest extends SerializerSuite {

    @Override
    protected Serializer serializer() {
        return new ProtostuffSerializer(Samples.allowList());
    }

    @Override
    protected SerializerType type() {
        return SerializerType.PROTOSTUFF;
    }

    /** As 1.3.1 does by default: the array keeps its length, the nulls move to the end. */
    @Override
    protected Object[] nullArgsAsReceived() {
        return new Object[] {"a", "c", null};
    }

    @Override
    protected List<byte[]> malformedBodies() {
        return List.of(
                new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
                        (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff},
                new byte[] {0x0a, 0x7f, 0x41},          // appName claims 127 bytes, has 1
                new byte[] {0x0a, 0x07, 0x76, 0x65, 0x63}, // appName "vectors" cut short
                new byte[] {0x4e});                     // unknown field 9 with wire type 6, which does not exist
    }

    @Override
    protected Object unwritableValue() {
        List<Object> cyclic = new ArrayList<>();
        cyclic.add(cyclic);
        return cyclic;
    }

    @Override
    protected StackTraces stackTraces() {
        return StackTraces.NOT_EMPTY;
    }

    @Override
    protected String whyAnotherRootTypeIsNotDetected() {
        return "a protostuff root carries no class name: another type's body reads as fields by number";
    }

    @Test
    void loneSurrogatesAreWrittenAsProtostuffDoes() {
        String odd = "a\uD800b\uDC00c";
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer();
        try {
            serializer().write(buf, new ResultWrapper(odd));
            // ResultWrapper #1 group, ID_STRING, length 9: a, ED A0 80, b, ED B0 80, c
            assertThat(ByteBufUtil.hexDump(buf)).isEqualTo("0b4a0961eda08062edb080630c");
        } finally {
            buf.release();
        }
    }

    @Test
    void longStringsAreWrittenByteForByteAsProtostuffWritesThem() {
        String ascii = "jupiter ".repeat(128);
        String[] values = {ascii, ascii + "?", "?".repeat(40), ascii + "\uD800", "\uD800" + ascii + "?",
            ascii + "\u00e9", "\u4e2d\u6587".repeat(20), ascii + "\uD83D\uDE00",
            "x".repeat(ByteBufOutput.ASCII_BULK_MIN_CHARS - 1)};
        Schema<ResultWrapper> schema = RuntimeSchema.getSchema(ResultWrapper.class);
        for (String value : values) {
            byte[] ours = Samples.encode(serializer(), new ResultWrapper(value));
            byte[] protostuff = ProtostuffIOUtil.toByteArray(new ResultWrapper(value), schema,
                    LinkedBuffer.allocate(4096));
            assertThat(ours).as("%s...", value.substring(0, Math.min(12, value.length()))).isEqualTo(protostuff);
        }
    }

    @Test
    void stringsReadBackExactlyAsProtostuffDecodesThem() {
        // Strings are decoded here, not by protostuff: same bytes, same string, replaced characters included.
        String odd = "a\uD800b\uDC00c";
        String long1k = "j\u00e9".repeat(600);
        for (String value : new String[] {odd, long1k, "", "ascii"}) {
            byte[] body = Samples.encode(serializer(), new ResultWrapper(value));
            Object read = read(body, ResultWrapper.class).getResult();
            Schema<ResultWrapper> schema = RuntimeSchema.getSchema(ResultWrapper.class);
            ResultWrapper byProtostuff = schema.newMessage();
            ProtostuffIOUtil.mergeFrom(body, byProtostuff, schema);
            assertThat(read).as("read back").isEqualTo(byProtostuff.getResult());
        }
    }

    @Test
    void nullResultIsAnEmptyBody() {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer();
        try {
            serializer().write(buf, new ResultWrapper(null));
            assertThat(buf.readableBytes()).isZero();
            assertThat(serializer().read(buf, ResultWrapper.class).getResult()).isNull();
        } finally {
            buf.release();
        }
    }

    @Test
    void legacyExceptionsTravelUnder131Names() {
        Serializer serializer = serializer();
        // Twice: protostuff writes a throwable class as ID_THROWABLE the first time and ID_POJO after that.
        for (int i = 0; i < 2; i++) {
            byte[] bytes = Samples.encode(serializer,
                    new ResultWrapper(new JupiterServiceNotFoundException("no such service: a-b-c")));
            String text = new String(bytes, StandardCharsets.ISO_8859_1);
            assertThat(text).contains("org.jupiter.rpc.exception.JupiterServiceNotFoundException")
                    .doesNotContain("io.jupiter");
            Object read = read(bytes, ResultWrapper.class).getResult();
            assertThat(read).isExactlyInstanceOf(JupiterServiceNotFoundException.class);
            assertThat(((Throwable) read).getMessage()).isEqualTo("no such service: a-b-c");
        }
    }

    @Test
    void aStringArgumentThatLooksLikeALegacyNameIsNotMapped() {
        String name = "org.jupiter.rpc.exception.JupiterServiceNotFoundException";
        MessageWrapper received = Samples.roundTrip(serializer(),
                Samples.request(new Object[] {name}, null), MessageWrapper.class, true);
        assertThat(received.getArgs()).containsExactly(name);
    }

    @Override
    protected List<ForgedEnvelope> forgedEnvelopes(byte[] written) {
        byte[] none = new byte[0];
        return List.of(
                new ForgedEnvelope("methodName (3) again after the arguments",
                        ForgedRequests.protostuff(none, written, ForgedRequests.protostuffString(3, "other"))),
                new ForgedEnvelope("methodName (3) before the whole body, so twice before the arguments",
                        ForgedRequests.protostuff(ForgedRequests.protostuffString(3, "other"), written, none)),
                new ForgedEnvelope("appName (1) again after the arguments",
                        ForgedRequests.protostuff(none, written, ForgedRequests.protostuffString(1, "other"))),
                new ForgedEnvelope("an unknown field (9) first",
                        ForgedRequests.protostuff(ForgedRequests.protostuffString(9, "padding"), written, none)),
                new ForgedEnvelope("an unknown field (9) last",
                        ForgedRequests.protostuff(none, written, ForgedRequests.protostuffString(9, "padding"))),
                new ForgedEnvelope("methodName (3) only after the arguments",
                        ForgedRequests.protostuff(none, Samples.encode(serializer(), new MessageWrapper("app",
                                null, null, new Object[] {"arg"}, null)), ForgedRequests.protostuffString(3, "call"))));
    }
}
