package io.jupiter.serialization.kryo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jupiter.serialization.SerializationException;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.testkit.WireVector;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import vectors.VectorBodies;
import vectors.Vectors;

/**
 * Jupiter 1.3.1's kryo bodies were written by Kryo 2.23, which Kryo 5 cannot read; they are not expected to decode.
 * They are still a good source of foreign bytes: reading them must end in a {@link SerializationException} or a
 * value, never in another exception.
 */
class KryoVectorTest {

    private final Serializer serializer = new KryoSerializer(Vectors.allowList());

    static List<WireVector> vectors() {
        List<WireVector> all = new ArrayList<>(WireVector.load("requests-kryo.json"));
        all.addAll(WireVector.load("responses-kryo.json"));
        return all;
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void foreignBodiesFailCleanly(WireVector vector) {
        Class<?> type = vector.name().contains("/request/") ? MessageWrapper.class : ResultWrapper.class;
        Throwable thrown = catchThrowable(() -> VectorBodies.decode(serializer, vector, type));
        if (thrown != null) {
            assertThat(thrown).isInstanceOf(SerializationException.class);
        }
    }
}
