package io.jupiter.serialization.protostuff;

import io.jupiter.serialization.wire.ResultWrapper;
import io.protostuff.Output;
import io.protostuff.Schema;
import io.protostuff.runtime.ObjectSchema;
import io.protostuff.runtime.RuntimeEnv;
import io.protostuff.runtime.RuntimeSchema;
import java.io.IOException;

/**
 * Writes a {@link ResultWrapper}, the body of every response, as its runtime schema does: its one field,
 * {@code result} (number 1, an {@code Object} slot), as a group with the value's kind and class, nothing when
 * {@code null}. The runtime schema's {@code writeTo} walks its fields with an iterator made for every message;
 * this writes the one field with the polymorphic schema of an {@code Object} slot instead, byte for byte the same.
 * A provider's answer is written from its result alone ({@code Serializer.writeResult}), without the wrapper.
 */
final class ResultWriter {

    private static final int RESULT = 1;

    /** The schema of a value in an {@code Object} slot (protostuff's field of such a slot makes its own alike). */
    private static final Schema<Object> OBJECT_SLOT = new ObjectSchema(RuntimeEnv.ID_STRATEGY) {
        @Override
        protected void setValue(Object value, Object owner) {
            throw new UnsupportedOperationException("writing only");
        }
    };

    /** Whether the runtime schema of {@code ResultWrapper} is its one field {@code result} under number 1. */
    static final boolean ONE_FIELD = oneField();

    private ResultWriter() {
    }

    private static boolean oneField() {
        Schema<ResultWrapper> schema = RuntimeSchema.getSchema(ResultWrapper.class);
        return schema instanceof RuntimeSchema<ResultWrapper> runtime && runtime.getFieldCount() == 1
                && runtime.getFieldNumber("result") == RESULT;
    }

    /** Whether {@link #write} writes {@code value}: a {@code ResultWrapper} (else its schema does). */
    static boolean writes(Object value) {
        return ONE_FIELD && value.getClass() == ResultWrapper.class;
    }

    /** Writes {@code new ResultWrapper(result)} as its schema would, without the wrapper; needs {@link #ONE_FIELD}. */
    static void write(Output output, Object result) throws IOException {
        if (result != null) {
            output.writeObject(RESULT, result, OBJECT_SLOT, false);
        }
    }
}
