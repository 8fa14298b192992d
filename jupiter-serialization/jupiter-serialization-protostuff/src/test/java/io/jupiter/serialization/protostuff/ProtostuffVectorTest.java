package io.jupiter.serialization.protostuff;

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
 * Decodes every protostuff vector captured from Jupiter 1.3.1 and re-encodes the {@code byte-identical} ones.
 *
 * <p>Error bodies whose throwable class is one of 1.3.1's own ({@code org.jupiter.rpc.exception.*}: the 0x40 and
 * 0x44 responses) cannot be decoded here because those classes do not exist; they must fail with a
 * {@link SerializationException}. The 0x52/0x53 bodies (a test exception and {@code IllegalStateException}, in both
 * the first-occurrence throwable form and the second-occurrence POJO form) decode to type and message.
 */
class ProtostuffVectorTest {

    private final Serializer serializer = new ProtostuffSerializer();

    static List<WireVector> requests() {
        return WireVector.load("requests-protostuff.json");
    }

    static List<WireVector> responses() {
        return WireVector.load("responses-protostuff.json");
    }

    @ParameterizedTest
    @MethodSource("requests")
    void request(WireVector vector) {
        MessageWrapper decoded = VectorBodies.decode(serializer, vector, MessageWrapper.class);

        Expected.assertRequest(decoded, vector.decoded());
        assertThat(vector.expect()).isEqualTo("byte-identical");
        assertThat(VectorBodies.encode(serializer, decoded)).isEqualTo(vector.body());
    }

    @ParameterizedTest
    @MethodSource("responses")
    void response(WireVector vector) {
        String resultType = VectorBodies.resultType(vector);
        if (resultType != null && resultType.startsWith("org.jupiter.")) {
            assertThatThrownBy(() -> VectorBodies.decode(serializer, vector, ResultWrapper.class))
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining(ResultWrapper.class.getName());
            return;
        }
        ResultWrapper decoded = VectorBodies.decode(serializer, vector, ResultWrapper.class);

        Expected.assertResponse(decoded, vector.decoded());
        if (vector.expect().equals("byte-identical")) {
            assertThat(VectorBodies.encode(serializer, decoded)).isEqualTo(vector.body());
        } else {
            assertThat(VectorBodies.status(vector)).isIn(0x52, 0x53);
            assertThat(((Throwable) decoded.getResult()).getStackTrace()).isNotEmpty();
        }
    }
}
