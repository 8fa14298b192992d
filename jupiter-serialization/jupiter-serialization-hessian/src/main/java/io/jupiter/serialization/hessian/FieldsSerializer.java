package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractHessianOutput;
import com.caucho.hessian.io.AbstractSerializer;
import java.io.IOException;
import java.util.List;

/**
 * Writes an object as Hessian writes a class's fields (object definition once, then the values; Hessian 1's map
 * form when the output asks for it), with the values given by {@link #value} instead of read with
 * {@code sun.misc.Unsafe}: the same bytes as Hessian's own serializer.
 */
abstract class FieldsSerializer extends AbstractSerializer {

    private final String[] names;
    private final Class<?>[] types;

    FieldsSerializer(List<String> names, List<Class<?>> types) {
        this.names = names.toArray(new String[0]);
        this.types = types.toArray(new Class<?>[0]);
    }

    /** The value of field {@code index} of {@code obj}, boxed. */
    abstract Object value(Object obj, int index) throws IOException;

    @Override
    public void writeObject(Object obj, AbstractHessianOutput out) throws IOException {
        if (out.addRef(obj)) {
            return;
        }
        String type = obj.getClass().getName();
        int ref = out.writeObjectBegin(type);
        if (ref < -1) {
            for (int i = 0; i < names.length; i++) {
                out.writeString(names[i]);
                WireFields.write(out, types[i], value(obj, i));
            }
            out.writeMapEnd();
            return;
        }
        if (ref == -1) {
            out.writeClassFieldLength(names.length);
            for (String name : names) {
                out.writeString(name);
            }
            out.writeObjectBegin(type);
        }
        for (int i = 0; i < names.length; i++) {
            WireFields.write(out, types[i], value(obj, i));
        }
    }
}
