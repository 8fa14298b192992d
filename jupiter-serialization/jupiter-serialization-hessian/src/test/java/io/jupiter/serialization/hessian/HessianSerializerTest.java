package io.jupiter.serialization.hessian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.EnvelopeException;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.legacy.JupiterServerBusyException;
import io.jupiter.testkit.ForgedRequests;
import io.jupiter.testkit.suites.serialization.Samples;
import io.jupiter.testkit.suites.serialization.SerializerSuite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class HessianSerializerTest extends SerializerSuite {

    @Override
    protected Serializer serializer() {
        return new HessianSerializer(Samples.allowList());
    }

    @Override
    protected SerializerType type() {
        return SerializerType.HESSIAN;
    }

    /** As with 1.3.1's Hessian, byte, short, char and float arrive as Integer, Integer, String and Double. */
    @Override
    protected Object asDecoded(Object value) {
        if (value instanceof Byte || value instanceof Short) {
            return ((Number) value).intValue();
        }
        if (value instanceof Character) {
            return value.toString();
        }
        if (value instanceof Float) {
            return ((Float) value).doubleValue();
        }
        return value;
    }

    @Override
    protected Object[] nullArgsAsReceived() {
        return new Object[] {"a", null, "c"};
    }

    @Override
    protected List<byte[]> malformedBodies() {
        return List.of(
                new byte[] {'C', 0x30},                          // class definition cut short
                new byte[] {0x43, 0x05, 'n', 'o', '.', 'n', 'o', (byte) 0x90, 0x60}, // unknown class "no.no"
                new byte[] {0x60},                               // instance of an undefined class
                new byte[] {0x52, 0x00, 0x07});                  // string chunk claiming more than is there
    }

    @Override
    protected Object unwritableValue() {
        return new NotSerializable();
    }

    @Override
    protected StackTraces stackTraces() {
        return StackTraces.EQUAL;
    }

    @Test
    void writesLegacyClassNames() {
        byte[] bytes = Samples.encode(serializer(), new ResultWrapper("jupiter"));
        // 1.3.1: 43 30 2c "org.jupiter.rpc.model.metadata.ResultWrapper" 91 06 "result" 60 07 "jupiter"
        assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
                .isEqualTo("C0,org.jupiter.rpc.model.metadata.ResultWrapper\u0091\u0006result`\u0007jupiter");
    }

    @Test
    void legacyExceptionsTravelUnder131Names() {
        byte[] bytes = Samples.encode(serializer(),
                new ResultWrapper(new JupiterServerBusyException("provider busy")));
        assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
                .contains("org.jupiter.rpc.exception.JupiterServerBusyException").doesNotContain("io.jupiter");
        Object read = read(bytes, ResultWrapper.class).getResult();
        assertThat(read).isExactlyInstanceOf(JupiterServerBusyException.class);
        assertThat(((Throwable) read).getMessage()).isEqualTo("provider busy");
    }

    @Test
    void bigDecimalAsWrittenBy131IsReadAsZeroWithItsScale() {
        // C "java.math.BigDecimal" [scale, intVal]; O 0x94 (scale 4) N (intVal null)
        byte[] bytes = HexFormat.of().parseHex(
                "43146a6176612e6d6174682e426967446563696d616c92057363616c6506696e7456616c60944e");
        assertThat(read(bytes, Object.class)).isEqualTo(new BigDecimal("0.0000"));
    }

    private static final class NotSerializable {
    }

    @Override
    protected List<ForgedEnvelope> forgedEnvelopes(byte[] written) {
        byte[] none = new byte[0];
        return List.of(
                new ForgedEnvelope("methodName listed again after attachments", ForgedRequests.hessian(written,
                        List.of(), none, List.of("methodName"), ForgedRequests.hessianString("other"))),
                new ForgedEnvelope("methodName listed first, then again", ForgedRequests.hessian(written,
                        List.of("methodName"), ForgedRequests.hessianString("other"), List.of(), none)),
                new ForgedEnvelope("metadata listed again after attachments", ForgedRequests.hessian(written,
                        List.of(), none, List.of("metadata"), new byte[] {'N'})),
                new ForgedEnvelope("an unknown field first, holding a list nested 200 deep", ForgedRequests.hessian(
                        written, List.of("padding"), ForgedRequests.hessianNestedList(200), List.of(), none)),
                new ForgedEnvelope("an unknown field last", ForgedRequests.hessian(written, List.of(), none,
                        List.of("padding"), ForgedRequests.hessianString("x"))));
    }

    @Test
    void aRequestsMetadataIsReadOnlyAsAServiceMetadata() {
        // 1.3.1's order: appName, methodName, metadata; a null metadata is one byte, 'N', after the two strings.
        byte[] written = Samples.encode(serializer(),
                new MessageWrapper("app", null, "call", new Object[] {"a"}, null));
        byte[] strings = concat(ForgedRequests.hessianString("app"), ForgedRequests.hessianString("call"));
        int metadata = indexOf(written, strings) + strings.length;
        assertThat(written[metadata]).isEqualTo((byte) 'N');
        byte[] asList = concat(Arrays.copyOf(written, metadata), ForgedRequests.hessianNestedList(200),
                Arrays.copyOfRange(written, metadata + 1, written.length));
        List<String> asked = new ArrayList<>();

        assertThatThrownBy(() -> readRequest(asList, (app, service, method) -> {
            asked.add(method);
            return ArgumentTypes.ANY;
        })).isInstanceOf(EnvelopeException.class).hasMessageContaining("metadata is a list");
        assertThat(asked).isEmpty();
    }

    private MessageWrapper readRequest(byte[] bytes, EnvelopeListener listener) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            return serializer().readRequest(buf, listener);
        } finally {
            buf.release();
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError("not in the body");
    }
}
