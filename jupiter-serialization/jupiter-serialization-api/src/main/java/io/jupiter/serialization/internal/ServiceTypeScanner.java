package io.jupiter.serialization.internal;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Finds the classes a service interface's calls carry: parameter, return and declared exception types, with the
 * type arguments of generic ones ({@code List<User>}, {@code CompletableFuture<User>}, {@code Map<K, V>}), and, for
 * every class that is not the JDK's, the types of its instance fields and its superclasses, recursively. The walk
 * stops after {@link #MAX_CLASSES} classes.
 */
public final class ServiceTypeScanner {

    /** At most this many classes are collected per interface. */
    public static final int MAX_CLASSES = 2000;

    private final Set<Class<?>> found = new LinkedHashSet<>();
    private final Set<Type> seen = new HashSet<>();
    private final Deque<Type> pending = new ArrayDeque<>();

    private ServiceTypeScanner() {
    }

    /** The classes the calls of {@code serviceInterface} carry, the interface itself not included. */
    public static Set<Class<?>> scan(Class<?> serviceInterface) {
        ServiceTypeScanner scanner = new ServiceTypeScanner();
        for (Method method : serviceInterface.getMethods()) {
            if (Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            for (Type type : method.getGenericParameterTypes()) {
                scanner.add(type);
            }
            scanner.add(method.getGenericReturnType());
            for (Type type : method.getGenericExceptionTypes()) {
                scanner.add(type);
            }
        }
        scanner.drain();
        return scanner.found;
    }

    private void add(Type type) {
        if (type != null && seen.add(type)) {
            pending.add(type);
        }
    }

    private void drain() {
        while (!pending.isEmpty() && found.size() < MAX_CLASSES) {
            Type type = pending.poll();
            if (type instanceof Class<?>) {
                visit((Class<?>) type);
            } else if (type instanceof ParameterizedType) {
                ParameterizedType parameterized = (ParameterizedType) type;
                add(parameterized.getRawType());
                for (Type argument : parameterized.getActualTypeArguments()) {
                    add(argument);
                }
            } else if (type instanceof GenericArrayType) {
                add(((GenericArrayType) type).getGenericComponentType());
            } else if (type instanceof WildcardType) {
                WildcardType wildcard = (WildcardType) type;
                for (Type bound : wildcard.getUpperBounds()) {
                    add(bound);
                }
                for (Type bound : wildcard.getLowerBounds()) {
                    add(bound);
                }
            } else if (type instanceof TypeVariable<?>) {
                for (Type bound : ((TypeVariable<?>) type).getBounds()) {
                    add(bound);
                }
            }
        }
    }

    private void visit(Class<?> type) {
        if (type.isArray()) {
            add(type.getComponentType());
            return;
        }
        if (type.isPrimitive() || BuiltInClassRules.neverTrusted(type.getName())) {
            return;
        }
        found.add(type);
        if (isJdk(type)) {
            return; // the JDK's own fields are its business; its value types are trusted by the built-in rules
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            add(c.getGenericSuperclass());
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers)) {
                    add(field.getGenericType());
                }
            }
        }
    }

    private static boolean isJdk(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.");
    }
}
