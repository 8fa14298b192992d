package io.jupiter.serialization.hessian;

import io.jupiter.serialization.Serializer;
import vectors.VectorSuite;
import vectors.Vectors;

/** Hessian against 1.3.1's vectors: bodies marked so are reproduced byte for byte once names are mapped. */
class HessianVectorTest extends VectorSuite {

    @Override
    protected Serializer serializer() {
        return new HessianSerializer(Vectors.allowList());
    }

    @Override
    protected String vectorName() {
        return "hessian";
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
