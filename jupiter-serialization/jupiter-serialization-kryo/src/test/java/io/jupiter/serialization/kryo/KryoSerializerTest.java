package io.jupiter.serialization.kryo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.testkit.suites.serialization.Samples;
import io.jupiter.testkit.suites.serialization.SerializerSuite;
import io.jupiter.testkit.suites.serialization.model.User;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KryoSerializerTest extends SerializerSuite {

    @Override
    protected Serializer serializer() {
        return new KryoSerializer(Samples.allowList());
    }

    @Override
    protected SerializerType type() {
        return SerializerType.KRYO;
    }

    @Override
    protected Object[] nullArgsAsReceived() {
        return new Object[] {"a", null, "c"};
    }

    @Override
    protected List<byte[]> malformedBodies() {
        return List.of(
                new byte[] {},                                          // nothing
                new byte[] {0x0a, 'a'});                                // appName cut short
    }

    @Override
    protected Object unwritableValue() {
        List<Object> cyclic = new ArrayList<>();
        cyclic.add(cyclic); // references are off, so a cycle cannot be written
        return cyclic;
    }

    @Override
    protected StackTraces stackTraces() {
        return StackTraces.EQUAL;
    }

    @Override
    protected String whyAnotherRootTypeIsNotDetected() {
        return "the root is written with writeObject, without a class id, as in 1.3.1";
    }

    /** User's class name but its last character, which Kryo writes with the high bit set (the end mark). */
    private static final String USER_BUT_LAST = User.class.getName().substring(0, User.class.getName().length() - 1);

    @Test
    void registeredClassesTravelAsIdsOthersByName() {
        String text = new String(Samples.encode(serializer(),
                Samples.request(new Object[] {new ArrayList<>(List.of("x")), new User()}, null)),
                StandardCharsets.ISO_8859_1);
        assertThat(text).doesNotContain("ServiceMetadata").doesNotContain("ArrayList").contains(USER_BUT_LAST);
    }

    @Test
    void anUnknownClassNameFailsWithSerializationException() {
        byte[] bytes = Samples.encode(serializer(), new ResultWrapper(new User()));
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int at = text.indexOf(USER_BUT_LAST);
        assertThat(at).isNotNegative();
        bytes[at + USER_BUT_LAST.length() - 1] = 'x'; // ...model.Usxr
        assertThatThrownBy(() -> read(bytes, ResultWrapper.class))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(USER_BUT_LAST.substring(0, USER_BUT_LAST.length() - 1) + "xr");
    }

    @Override
    protected List<ForgedEnvelope> forgedEnvelopes(byte[] written) {
        return List.of();
    }

    @Override
    protected String whyEnvelopesCannotBeForged() {
        return "kryo writes a MessageWrapper's fields by position, without names or numbers, and its readRequest asks"
                + " the listener with the message it read whole: no field can repeat or move";
    }
}
