package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.AbstractHessianOutput;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/**
 * The fields Hessian writes for a class, in its order, and one field's value as Hessian writes and reads it: the
 * rules of Hessian's own field (de)serializers, so a class written here has the same bytes as Hessian's.
 */
final class WireFields {

    private WireFields() {
    }

    /**
     * Hessian's field order: the class's fields then its superclasses', static and transient ones left out;
     * primitives and {@code java.lang.*} types (except {@code Object}) first, then the others.
     */
    static List<Field> of(Class<?> cl) {
        List<Field> simple = new ArrayList<>();
        List<Field> compound = new ArrayList<>();
        for (Class<?> c = cl; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isTransient(modifiers) || Modifier.isStatic(modifiers)) {
                    continue;
                }
                Class<?> type = field.getType();
                boolean isSimple = type.isPrimitive()
                        || type.getName().startsWith("java.lang.") && type != Object.class;
                (isSimple ? simple : compound).add(field);
            }
        }
        simple.addAll(compound);
        return simple;
    }

    /**
     * {@link #of(Class)}, each field made accessible, or {@code null} if reflection may not read and set one of
     * them (as in the JDK's own classes).
     */
    static List<Field> accessible(Class<?> cl) {
        List<Field> fields = of(cl);
        for (Field field : fields) {
            if (!field.trySetAccessible()) {
                return null;
            }
        }
        return fields;
    }

    /** Writes {@code value}, the value of a field of type {@code type}, as Hessian writes such a field. */
    static void write(AbstractHessianOutput out, Class<?> type, Object value) throws IOException {
        if (type == boolean.class) {
            out.writeBoolean((Boolean) value);
        } else if (type == byte.class || type == short.class || type == int.class) {
            out.writeInt(((Number) value).intValue());
        } else if (type == long.class) {
            out.writeLong((Long) value);
        } else if (type == float.class || type == double.class) {
            out.writeDouble(((Number) value).doubleValue());
        } else if (type == char.class) {
            out.writeString(String.valueOf((char) (Character) value));
        } else if (type == String.class) {
            out.writeString((String) value);
        } else if (type == Date.class) {
            if (value == null) {
                out.writeNull();
            } else {
                out.writeUTCDate(((Date) value).getTime());
            }
        } else {
            out.writeObject(value);
        }
    }

    /** Reads a field of type {@code type} as Hessian reads it; a primitive comes back boxed to its own type. */
    static Object read(AbstractHessianInput in, Class<?> type) throws IOException {
        if (type == boolean.class) {
            return in.readBoolean();
        } else if (type == byte.class) {
            return (byte) in.readInt();
        } else if (type == short.class) {
            return (short) in.readInt();
        } else if (type == int.class) {
            return in.readInt();
        } else if (type == long.class) {
            return in.readLong();
        } else if (type == float.class) {
            return (float) in.readDouble();
        } else if (type == double.class) {
            return in.readDouble();
        } else if (type == char.class) {
            String text = in.readString();
            return text == null || text.isEmpty() ? (char) 0 : text.charAt(0);
        } else if (type == String.class) {
            return in.readString();
        }
        return in.readObject(type);
    }

    /** Sets a field read by {@link #read}: a primitive field keeps its default when the wire had nothing. */
    static void set(Field field, Object target, Object value) throws IllegalAccessException {
        if (value == null && field.getType().isPrimitive()) {
            return;
        }
        field.set(target, value);
    }
}
