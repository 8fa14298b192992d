package io.jupiter.rpc.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replaces the JDK's internal collection classes ({@code List.of}, {@code Map.of}, {@code Collections.unmodifiable*},
 * {@code Arrays.asList}, ...) by their plain counterparts before a value is serialized. Those classes cannot be
 * rebuilt by field-based serializers (they are immutable, or closed by the module system) and their names mean
 * nothing to a Java 8 peer. Only top-level values (arguments, results) are replaced; a POJO's declared collection
 * fields need no help because protostuff does not write their class.
 */
public final class PortableValues {

    private PortableValues() {
    }

    /** Replaces, in place, each argument that is a JDK-internal collection. */
    public static void replaceInternalCollections(Object[] values) {
        for (int i = 0; i < values.length; i++) {
            values[i] = portable(values[i]);
        }
    }

    /** {@code value}, or a plain copy of it if it is a JDK-internal collection or map. */
    public static Object portable(Object value) {
        if (value instanceof Collection<?> || value instanceof Map<?, ?>) {
            String name = value.getClass().getName();
            if (name.startsWith("java.util.ImmutableCollections$") || name.startsWith("java.util.Collections$")
                    || name.equals("java.util.Arrays$ArrayList")) {
                return copy(value);
            }
        }
        return value;
    }

    private static Object copy(Object value) {
        if (value instanceof List<?> list) {
            return new ArrayList<>(list);
        }
        if (value instanceof Set<?> set) {
            return new LinkedHashSet<>(set);
        }
        if (value instanceof Map<?, ?> map) {
            return new LinkedHashMap<>(map);
        }
        return new ArrayList<>((Collection<?>) value);
    }
}
