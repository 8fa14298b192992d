package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractDeserializer;
import com.caucho.hessian.io.AbstractHessianInput;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@code Throwable} as Hessian writes it, field by field, without reading {@code Throwable}'s private fields:
 * {@code detailMessage}, {@code cause}, {@code stackTrace} and {@code suppressedExceptions} come from their public
 * methods (a cause never set is written, as the field holds it, as the throwable itself), the subclass's own fields
 * by reflection. Read back through a {@code (String)} or {@code (String, Throwable)} constructor, then
 * {@code initCause}, {@code setStackTrace} and {@code addSuppressed}.
 *
 * <p>Only for classes where that gives the fields' values: written, not when {@code getMessage()} or
 * {@code getCause()} is overridden, or a field of the subclass is not open to reflection (the JDK's own subclasses
 * with fields); read, not when the message constructor does not keep the message as given (tried once per class).
 */
final class ThrowableForm {

    private static final Set<String> THROWABLE_FIELDS = Set.of("detailMessage", "cause", "stackTrace",
            "suppressedExceptions");

    private ThrowableForm() {
    }

    /** The serializer for {@code type}, or {@code null} where this form cannot give its fields' values. */
    static FieldsSerializer serializer(Class<?> type) {
        if (!readable(type)) {
            return null;
        }
        List<Field> fields = WireFields.of(type);
        Field[] own = new Field[fields.size()];
        for (int i = 0; i < own.length; i++) {
            Field field = fields.get(i);
            if (field.getDeclaringClass() == Throwable.class) {
                if (!THROWABLE_FIELDS.contains(field.getName())) {
                    return null;
                }
            } else if (field.trySetAccessible()) {
                own[i] = field;
            } else {
                return null;
            }
        }
        List<String> names = fields.stream().map(Field::getName).toList();
        return new FieldsSerializer(names, fields.stream().<Class<?>>map(Field::getType).toList()) {
            @Override
            Object value(Object obj, int index) throws IOException {
                Throwable t = (Throwable) obj;
                if (own[index] != null) {
                    try {
                        return own[index].get(obj);
                    } catch (IllegalAccessException e) {
                        throw new IOException(own[index] + ": " + e, e);
                    }
                }
                switch (names.get(index)) {
                    case "detailMessage":
                        return t.getMessage();
                    case "cause":
                        return t.getCause() == null ? t : t.getCause();
                    case "stackTrace":
                        return t.getStackTrace();
                    default:
                        Throwable[] suppressed = t.getSuppressed();
                        return suppressed.length == 0 ? Collections.emptyList()
                                : new ArrayList<>(Arrays.asList(suppressed));
                }
            }
        };
    }

    private static boolean readable(Class<?> type) {
        try {
            return type.getMethod("getMessage").getDeclaringClass() == Throwable.class
                    && type.getMethod("getCause").getDeclaringClass() == Throwable.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** The deserializer for {@code type}, or {@code null} where it has no message constructor or closed fields. */
    static AbstractDeserializer deserializer(Class<?> type) {
        Constructor<?> constructor = constructor(type, String.class);
        boolean withCause = false;
        if (constructor == null) {
            constructor = constructor(type, String.class, Throwable.class);
            withCause = true;
        }
        if (constructor == null || !keepsTheMessage(constructor, withCause)) {
            return null;
        }
        Map<String, Field> own = new HashMap<>();
        for (Field field : WireFields.of(type)) {
            if (field.getDeclaringClass() != Throwable.class) {
                if (!field.trySetAccessible()) {
                    return null;
                }
                own.putIfAbsent(field.getName(), field);
            }
        }
        return new Reader(type, constructor, withCause, own);
    }

    /**
     * Whether the constructor stores the message it is given as it is (one that formats it, {@code super("code " +
     * code)}, would change the message on every trip): tried once with a probe.
     */
    private static boolean keepsTheMessage(Constructor<?> constructor, boolean withCause) {
        String probe = "jupiter-probe";
        try {
            Object t = withCause ? constructor.newInstance(probe, null) : constructor.newInstance(probe);
            return probe.equals(((Throwable) t).getMessage());
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    private static Constructor<?> constructor(Class<?> type, Class<?>... parameters) {
        try {
            Constructor<?> constructor = type.getDeclaredConstructor(parameters);
            return constructor.trySetAccessible() ? constructor : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** Reads the fields first (the throwable is created from its message), then builds it. */
    private static final class Reader extends ByNameDeserializer {
        private final Class<?> type;
        private final Constructor<?> constructor;
        private final boolean withCause;
        private final Map<String, Field> own;

        Reader(Class<?> type, Constructor<?> constructor, boolean withCause, Map<String, Field> own) {
            super(type);
            this.type = type;
            this.constructor = constructor;
            this.withCause = withCause;
            this.own = own;
        }

        @Override
        public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
            // A reference to the throwable from inside itself (its cause when never set) reads as null.
            int ref = in.addRef(null);
            String message = null;
            Object cause = null;
            Object stackTrace = null;
            Object suppressed = null;
            Object[] values = new Object[fieldNames.length];
            for (int i = 0; i < fieldNames.length; i++) {
                Field field = own.get(fieldNames[i]);
                if (field != null) {
                    values[i] = WireFields.read(in, field.getType());
                    continue;
                }
                switch (fieldNames[i]) {
                    case "detailMessage":
                        message = in.readString();
                        break;
                    case "cause":
                        cause = in.readObject();
                        break;
                    case "stackTrace":
                        stackTrace = in.readObject(StackTraceElement[].class);
                        break;
                    case "suppressedExceptions":
                        suppressed = in.readObject();
                        break;
                    default:
                        in.readObject();
                        break;
                }
            }
            Throwable t = create(message, cause instanceof Throwable ? (Throwable) cause : null);
            for (int i = 0; i < fieldNames.length; i++) {
                Field field = own.get(fieldNames[i]);
                if (field != null) {
                    try {
                        WireFields.set(field, t, values[i]);
                    } catch (IllegalAccessException | IllegalArgumentException e) {
                        throw new IOException(type.getName() + "." + fieldNames[i] + ": cannot set: " + e, e);
                    }
                }
            }
            if (cause instanceof Throwable && cause != t) {
                try {
                    t.initCause((Throwable) cause);
                } catch (IllegalStateException | IllegalArgumentException alreadySet) {
                    // the constructor set a cause of its own
                }
            }
            t.setStackTrace(stackTrace(stackTrace));
            if (suppressed instanceof Collection<?> list) {
                for (Object s : list) {
                    if (s instanceof Throwable && s != t) {
                        t.addSuppressed((Throwable) s);
                    }
                }
            }
            in.setRef(ref, t);
            return t;
        }

        private Throwable create(String message, Throwable cause) throws IOException {
            try {
                return (Throwable) (withCause ? constructor.newInstance(message, cause)
                        : constructor.newInstance(message));
            } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
                throw new IOException(type.getName() + ": cannot create: " + e, e);
            }
        }

        private static StackTraceElement[] stackTrace(Object value) {
            if (!(value instanceof Object[] array)) {
                return new StackTraceElement[0];
            }
            return Arrays.stream(array).filter(StackTraceElement.class::isInstance)
                    .toArray(StackTraceElement[]::new);
        }
    }
}
