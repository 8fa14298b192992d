package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractHessianInput;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an object Hessian wrote field by field into a class that has a no-argument constructor and fields this
 * module may set by reflection: created with that constructor, fields set by name (unknown names read and dropped),
 * then {@code readResolve()} if the class has one. Hessian's own deserializer does the same with
 * {@code sun.misc.Unsafe} and without a constructor.
 */
final class FieldsDeserializer extends ByNameDeserializer {

    private final Class<?> type;
    private final Constructor<?> constructor;
    private final Map<String, Field> fields = new HashMap<>();
    private final Method readResolve;

    private FieldsDeserializer(Class<?> type, Constructor<?> constructor, List<Field> fields, Method readResolve) {
        super(type);
        this.type = type;
        this.constructor = constructor;
        for (Field field : fields) {
            this.fields.putIfAbsent(field.getName(), field);
        }
        this.readResolve = readResolve;
    }

    /** For {@code type}, or {@code null} when it has no no-argument constructor or a field reflection cannot set. */
    static FieldsDeserializer of(Class<?> type) {
        List<Field> fields = type.isRecord() ? null : WireFields.accessible(type);
        if (fields == null) {
            return null;
        }
        Constructor<?> constructor;
        try {
            constructor = type.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            return null;
        }
        if (!constructor.trySetAccessible()) {
            return null;
        }
        Method readResolve = readResolve(type);
        if (readResolve != null && !readResolve.trySetAccessible()) {
            return null;
        }
        return new FieldsDeserializer(type, constructor, fields, readResolve);
    }

    /** The class's {@code readResolve()}, its own or inherited, or {@code null}. */
    private static Method readResolve(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals("readResolve") && m.getParameterCount() == 0) {
                    return m;
                }
            }
        }
        return null;
    }

    @Override
    public boolean isReadResolve() {
        return readResolve != null;
    }

    @Override
    public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
        Object obj;
        try {
            obj = constructor.newInstance();
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            throw new IOException(type.getName() + ": cannot create: " + e, e);
        }
        int ref = in.addRef(obj);
        for (String name : fieldNames) {
            Field field = fields.get(name);
            if (field == null) {
                in.readObject();
                continue;
            }
            Object value = WireFields.read(in, field.getType());
            try {
                WireFields.set(field, obj, value);
            } catch (IllegalAccessException | IllegalArgumentException e) {
                throw new IOException(type.getName() + "." + name + ": cannot set " + value + ": " + e, e);
            }
        }
        if (readResolve == null) {
            return obj;
        }
        try {
            Object resolved = readResolve.invoke(obj);
            if (resolved != obj) {
                in.setRef(ref, resolved);
            }
            return resolved;
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IOException(type.getName() + ".readResolve(): " + e, e);
        }
    }
}
