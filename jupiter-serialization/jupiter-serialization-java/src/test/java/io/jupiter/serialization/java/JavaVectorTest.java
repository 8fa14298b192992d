package io.jupiter.serialization.java;

import io.jupiter.serialization.Serializer;
import vectors.VectorSuite;
import vectors.Vectors;

/** Java serialization against 1.3.1's vectors: bodies marked so are reproduced byte for byte once names are mapped. */
class JavaVectorTest extends VectorSuite {

    @Override
    protected Serializer serializer() {
        return new JavaSerializer(Vectors.allowList());
    }

    @Override
    protected String vectorName() {
        return "java";
    }

    @Override
    protected String reproducible() {
        return "byte-identical-after-name-mapping";
    }

    @Override
    protected boolean everyRequestReproducible() {
        return false;
    }
}
