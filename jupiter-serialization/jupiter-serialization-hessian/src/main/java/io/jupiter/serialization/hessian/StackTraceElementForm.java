package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.AbstractDeserializer;
import com.caucho.hessian.io.AbstractHessianInput;
import java.io.IOException;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code java.lang.StackTraceElement} as Hessian writes it, field by field, from its public getters, and read back by
 * field name through its public constructor (Hessian's own reader sets the JDK's private fields).
 */
final class StackTraceElementForm {

    private StackTraceElementForm() {
    }

    /** The serializer, or {@code null} if this JDK's {@code StackTraceElement} has a field without a getter here. */
    static FieldsSerializer serializer() {
        List<Field> fields = WireFields.of(StackTraceElement.class);
        List<String> names = fields.stream().map(Field::getName).toList();
        for (String name : names) {
            if (get(new StackTraceElement("c", "m", "f", 1), name) == UNKNOWN) {
                return null;
            }
        }
        return new FieldsSerializer(names, fields.stream().<Class<?>>map(Field::getType).toList()) {
            @Override
            Object value(Object obj, int index) {
                return get((StackTraceElement) obj, names.get(index));
            }
        };
    }

    private static final Object UNKNOWN = new Object();

    static final AbstractDeserializer DESERIALIZER = new ByNameDeserializer(StackTraceElement.class) {
        @Override
        public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
            int ref = in.addRef(null);
            Map<String, Object> values = new HashMap<>();
            for (String name : fieldNames) {
                values.put(name, name.equals("lineNumber") ? in.readInt() : in.readObject());
            }
            StackTraceElement element = new StackTraceElement(text(values, "classLoaderName"),
                    text(values, "moduleName"), text(values, "moduleVersion"),
                    Objects.requireNonNullElse(text(values, "declaringClass"), ""),
                    Objects.requireNonNullElse(text(values, "methodName"), ""), text(values, "fileName"),
                    values.get("lineNumber") instanceof Integer line ? line : -1);
            in.setRef(ref, element);
            return element;
        }
    };

    /** Bits of the JDK's {@code format} field (which of the names {@code toString()} leaves out). */
    private static final int BUILTIN_CLASS_LOADER = 0x1;
    private static final int JDK_NON_UPGRADEABLE_MODULE = 0x2;

    /**
     * The JDK's private {@code format} byte, read back from what {@code toString()} leaves out: the class loader's
     * name (a built-in loader's) and the module's version (a JDK module's).
     */
    static byte format(StackTraceElement e) {
        String text = e.toString();
        int bits = 0;
        String loader = e.getClassLoaderName();
        if (loader != null && !loader.isEmpty() && !text.startsWith(loader + "/")) {
            bits |= BUILTIN_CLASS_LOADER;
        }
        String module = e.getModuleName();
        String version = e.getModuleVersion();
        if (module != null && !module.isEmpty() && version != null && !version.isEmpty()
                && !text.contains(module + "@" + version + "/")) {
            bits |= JDK_NON_UPGRADEABLE_MODULE;
        }
        return (byte) bits;
    }

    private static String text(Map<String, Object> values, String name) {
        return values.get(name) instanceof String text ? text : null;
    }

    private static Object get(StackTraceElement e, String field) {
        switch (field) {
            case "classLoaderName":
                return e.getClassLoaderName();
            case "moduleName":
                return e.getModuleName();
            case "moduleVersion":
                return e.getModuleVersion();
            case "declaringClass":
                return e.getClassName();
            case "methodName":
                return e.getMethodName();
            case "fileName":
                return e.getFileName();
            case "lineNumber":
                return e.getLineNumber();
            case "format":
                return format(e);
            default:
                return UNKNOWN;
        }
    }
}
