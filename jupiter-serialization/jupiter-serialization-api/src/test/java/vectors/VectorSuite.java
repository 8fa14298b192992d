package vectors;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.LegacyClassNames;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.testkit.WireVector;
import java.util.List;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Decodes every vector captured from Jupiter 1.3.1 for one serializer and re-encodes those the vector marks as
 * reproducible. Error bodies naming 1.3.1's own exception classes ({@code org.jupiter.rpc.exception.*}, sent for
 * 0x40 and 0x44) decode to our wire classes of the same simple name, with the message kept.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class VectorSuite {

    /** The serializer under test. */
    protected abstract Serializer serializer();

    /** The vector files' serializer name: {@code requests-<name>.json}, {@code responses-<name>.json}. */
    protected abstract String vectorName();

    /**
     * The {@code expect} value of vectors whose bodies this serializer reproduces byte for byte, e.g.
     * {@code byte-identical}.
     */
    protected abstract String reproducible();

    /** Whether every request vector must be reproducible (protostuff writes no class names, so all are). */
    protected abstract boolean everyRequestReproducible();

    /** Extra checks for a response that is not reproducible (e.g. an exception with a JDK-specific stack). */
    protected void checkNotReproducible(WireVector vector, ResultWrapper decoded) {
    }

    List<WireVector> requests() {
        return WireVector.load("requests-" + vectorName() + ".json");
    }

    List<WireVector> responses() {
        return WireVector.load("responses-" + vectorName() + ".json");
    }

    @ParameterizedTest
    @MethodSource("requests")
    void request(WireVector vector) {
        MessageWrapper decoded = VectorBodies.decode(serializer(), vector, MessageWrapper.class);

        Expected.assertRequest(decoded, vector.decoded());
        if (everyRequestReproducible()) {
            assertThat(vector.expect()).isEqualTo(reproducible());
        }
        if (vector.expect().equals(reproducible())) {
            assertThat(VectorBodies.encode(serializer(), decoded)).isEqualTo(vector.body());
        }
    }

    @ParameterizedTest
    @MethodSource("responses")
    void response(WireVector vector) {
        ResultWrapper decoded = VectorBodies.decode(serializer(), vector, ResultWrapper.class);
        String resultType = VectorBodies.resultType(vector);
        if (resultType != null && resultType.startsWith("org.jupiter.")) {
            Class<?> local = LegacyClassNames.localClass(resultType);
            assertThat(local).as("a local class for %s", resultType).isNotNull();
            assertThat(decoded.getResult()).isExactlyInstanceOf(local);
            assertThat(local.getSimpleName()).isEqualTo(resultType.substring(resultType.lastIndexOf('.') + 1));
            assertThat(((Throwable) decoded.getResult()).getMessage())
                    .isEqualTo(vector.decoded().get("result").get("message").asText());
            return;
        }
        Expected.assertResponse(decoded, vector.decoded());
        if (vector.expect().equals(reproducible())) {
            assertThat(VectorBodies.encode(serializer(), decoded)).isEqualTo(vector.body());
            // What a provider answers with: the result alone, without the wrapper.
            assertThat(VectorBodies.encodeResult(serializer(), decoded.getResult())).isEqualTo(vector.body());
        } else {
            checkNotReproducible(vector, decoded);
        }
    }
}
