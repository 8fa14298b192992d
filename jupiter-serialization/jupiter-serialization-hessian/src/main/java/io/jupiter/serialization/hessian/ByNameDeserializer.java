package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractDeserializer;
import com.caucho.hessian.io.AbstractHessianInput;
import java.io.IOException;

/**
 * A deserializer of one type that reads an object's fields by their names ({@link #readObject(AbstractHessianInput,
 * String[])}); Hessian 2's object instances, whose field list it keeps as names, come through it too.
 */
abstract class ByNameDeserializer extends AbstractDeserializer {

    private final Class<?> type;

    ByNameDeserializer(Class<?> type) {
        this.type = type;
    }

    @Override
    public Class<?> getType() {
        return type;
    }

    @Override
    public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
        return readObject(in, (String[]) fields);
    }

    @Override
    public abstract Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException;
}
