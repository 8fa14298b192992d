package io.jupiter.serialization.java;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.legacy.JupiterBadRequestException;
import io.jupiter.testkit.suites.serialization.Samples;
import io.jupiter.testkit.suites.serialization.SerializerSuite;
import io.jupiter.testkit.suites.serialization.model.User;
import io.netty.buffer.ByteBufUtil;
import java.io.ObjectInputFilter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JavaSerializerTest extends SerializerSuite {

    @Override
    protected Serializer serializer() {
        return new JavaSerializer(Samples.allowList());
    }

    @Override
    protected SerializerType type() {
        return SerializerType.JAVA;
    }

    @Override
    protected Object[] nullArgsAsReceived() {
        return new Object[] {"a", null, "c"};
    }

    @Override
    protected List<byte[]> malformedBodies() {
        return List.of(
                new byte[] {(byte) 0xac, (byte) 0xed},                 // header cut short
                new byte[] {(byte) 0xac, (byte) 0xed, 0x00, 0x05},     // no object
                new byte[] {(byte) 0xac, (byte) 0xed, 0x00, 0x05, 0x74, 0x00, 0x09, 'x'}, // string cut short
                new byte[] {(byte) 0xac, (byte) 0xed, 0x00, 0x05, 0x72, 0x00, 0x05, 'n', 'o', '.', 'n', 'o',
                        0, 0, 0, 0, 0, 0, 0, 1, 0x02, 0x00, 0x00, 0x78, 0x70}, // descriptor of unknown class
                new byte[] {0x01, 0x02, 0x03});                         // not a serialization stream
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
    void writesLegacyClassNamesAndSerialVersionUids() {
        byte[] bytes = Samples.encode(serializer(), Samples.request(new Object[] {"x"}, null));
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        assertThat(text).contains("org.jupiter.rpc.model.metadata.MessageWrapper")
                .contains("Lorg/jupiter/rpc/model/metadata/ServiceMetadata;")
                .contains("org.jupiter.rpc.model.metadata.ServiceMetadata")
                .doesNotContain("io.jupiter").doesNotContain("io/jupiter");
        assertThat(ByteBufUtil.hexDump(bytes)).contains("0e039453bedfbab4", "845f605187099cbd");
    }

    @Test
    void legacyExceptionsTravelUnder131NamesAndSerialVersionUids() {
        byte[] bytes = Samples.encode(serializer(),
                new ResultWrapper(new JupiterBadRequestException("cannot read")));
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        assertThat(text).contains("org.jupiter.rpc.exception.JupiterBadRequestException")
                .contains("org.jupiter.rpc.exception.JupiterRemoteException")
                .doesNotContain("io.jupiter").doesNotContain("io/jupiter");
        // serialVersionUIDs of 1.3.1's JupiterBadRequestException and JupiterRemoteException
        assertThat(ByteBufUtil.hexDump(bytes)).contains(String.format("%016x", -6603241073638657127L),
                String.format("%016x", -6516335527982400712L));
        Object read = read(bytes, ResultWrapper.class).getResult();
        assertThat(read).isExactlyInstanceOf(JupiterBadRequestException.class);
        assertThat(((Throwable) read).getMessage()).isEqualTo("cannot read");
    }

    @Test
    void theFilterIsApplied() {
        Serializer strict = new JavaSerializer(Samples.allowList(), info -> info.serialClass() == User.class
                ? ObjectInputFilter.Status.REJECTED : ObjectInputFilter.Status.UNDECIDED);
        assertThat(Samples.roundTrip(strict, new ResultWrapper("fine"), ResultWrapper.class, true).getResult())
                .isEqualTo("fine");
        assertThatThrownBy(() -> Samples.roundTrip(strict,
                new ResultWrapper(new User(1, "u", null)), ResultWrapper.class, true))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("REJECTED");
    }

    private static final class NotSerializable {
    }

    @Override
    protected List<ForgedEnvelope> forgedEnvelopes(byte[] written) {
        return List.of();
    }

    @Override
    protected String whyEnvelopesCannotBeForged() {
        return "Java serialization's readRequest reads the whole MessageWrapper (each field once, by its class"
                + " descriptor), then asks the listener with the message it returns";
    }
}
