package io.jupiter.serialization.hessian;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.List;

/** Writes a class's fields read by reflection: for classes whose fields this module may read (not the JDK's). */
final class ReflectiveSerializer extends FieldsSerializer {

    private final Field[] fields;

    private ReflectiveSerializer(List<Field> fields) {
        super(fields.stream().map(Field::getName).toList(), fields.stream().<Class<?>>map(Field::getType).toList());
        this.fields = fields.toArray(new Field[0]);
    }

    /** For {@code type}, or {@code null} when reflection cannot read one of its fields. */
    static ReflectiveSerializer of(Class<?> type) {
        List<Field> fields = WireFields.accessible(type);
        return fields == null ? null : new ReflectiveSerializer(fields);
    }

    @Override
    Object value(Object obj, int index) throws IOException {
        try {
            return fields[index].get(obj);
        } catch (IllegalAccessException e) {
            throw new IOException(fields[index] + ": " + e, e);
        }
    }
}
