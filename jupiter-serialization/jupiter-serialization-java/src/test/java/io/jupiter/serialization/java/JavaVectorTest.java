package io.jupiter.serialization.java;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.testkit.WireVector;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import vectors.Expected;
import vectors.VectorBodies;

/**
 * Decodes every Java-serialization vector captured from Jupiter 1.3.1 and re-encodes the
 * {@code byte-identical-after-name-mapping} ones.
 *
 * <p>Bodies whose throwable is one of 1.3.1's own classes ({@code org.jupiter.rpc.exception.*}, the 0x40 and 0x44
 * responses) fail with a {@link SerializationException}: those classes do not exist here.
 */
class JavaVectorTest {

    private final Serializer serializer = new JavaSerializer();

    static List<WireVector> requests() {
        return WireVector.load("requests-java.json");
    }

    static List<WireVector> responses() {
        return WireVector.load("responses-java.json");
    }

    @ParameterizedTest
    @MethodSource("requests")
    void request(WireVector vector) {
        MessageWrapper decoded = VectorBodies.decode(serializer, vector, MessageWrapper.class);

        Expected.assertRequest(decoded, vector.decoded());
        if (vector.expect().equals("byte-identical-after-name-mapping")) {
            assertThat(VectorBodies.encode(serializer, decoded)).isEqualTo(vector.body());
        }
    }

    @ParameterizedTest
    @MethodSource("responses")
    void response(WireVector vector) {
        String resultType = VectorBodies.resultType(vector);
        if (resultType != null && resultType.startsWith("org.jupiter.")) {
            assertThatThrownBy(() -> VectorBodies.decode(serializer, vector, ResultWrapper.class))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining(resultType);
            return;
        }
        ResultWrapper decoded = VectorBodies.decode(serializer, vector, ResultWrapper.class);

        Expected.assertResponse(decoded, vector.decoded());
        if (vector.expect().equals("byte-identical-after-name-mapping")) {
            assertThat(VectorBodies.encode(serializer, decoded)).isEqualTo(vector.body());
        }
    }
}
