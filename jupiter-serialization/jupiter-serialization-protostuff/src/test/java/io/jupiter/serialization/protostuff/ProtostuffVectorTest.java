package io.jupiter.serialization.protostuff;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.testkit.WireVector;
import vectors.VectorBodies;
import vectors.VectorSuite;
import vectors.Vectors;

/**
 * Protostuff against 1.3.1's vectors: every request is reproduced byte for byte. The responses that are not are the
 * 0x52/0x53 exceptions, whose stack trace elements have JDK-specific fields; they decode to type and message, in
 * both the first-occurrence throwable form and the second-occurrence POJO form.
 */
class ProtostuffVectorTest extends VectorSuite {

    @Override
    protected Serializer serializer() {
        return new ProtostuffSerializer(Vectors.allowList());
    }

    @Override
    protected String vectorName() {
        return "protostuff";
    }

    @Override
    protected String reproducible() {
        return "byte-identical";
    }

    @Override
    protected boolean everyRequestReproducible() {
        return true;
    }

    @Override
    protected void checkNotReproducible(WireVector vector, ResultWrapper decoded) {
        assertThat(VectorBodies.status(vector)).isIn(0x52, 0x53);
        assertThat(((Throwable) decoded.getResult()).getStackTrace()).isNotEmpty();
    }
}
