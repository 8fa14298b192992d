package io.jupiter.serialization;

import io.jupiter.common.Requires;
import java.util.List;

/**
 * What the arguments of a request may be, once its envelope named the method: the declared parameter types of the
 * methods of that name (one list per overload; the wire carries no parameter types, so an overloaded name accepts at
 * each position what any of its overloads with that many parameters accepts).
 *
 * <p>A value is accepted at position {@code i} when its class is assignable to the parameter type there, primitive
 * parameters taking their boxed class ({@code Integer} for {@code int}, never {@code Long}: arguments are cast, not
 * converted). A parameter declared {@code Object} (or a type variable erased to it) accepts any class, so only the
 * {@link ClassAllowList} stands there. A null value is not checked here. Serializers that name a class before its
 * value check that class ({@link #checkClass}) before creating anything of it, and every serializer checks the
 * values read ({@link #checkValues}).
 *
 * <p>Immutable; built once per method name and shared by every request for it.
 */
public final class ArgumentTypes {

    /** No expectation: any count, any class the allow-list trusts. */
    public static final ArgumentTypes ANY = new ArgumentTypes("", new Class<?>[0][]);

    private final String methodName;
    /** Boxed parameter types, one array per overload. Empty for {@link #ANY}. */
    private final Class<?>[][] overloads;

    private ArgumentTypes(String methodName, Class<?>[][] overloads) {
        this.methodName = methodName;
        this.overloads = overloads;
    }

    /**
     * The expectation for a method named {@code methodName} whose overloads declare {@code parameterTypes}.
     *
     * @throws IllegalArgumentException if there is no overload
     */
    public static ArgumentTypes of(String methodName, List<Class<?>[]> parameterTypes) {
        Requires.notNull(methodName, "methodName");
        Requires.argument(!parameterTypes.isEmpty(), "parameterTypes: none (expected: at least one overload)");
        Class<?>[][] boxed = new Class<?>[parameterTypes.size()][];
        for (int i = 0; i < boxed.length; i++) {
            Class<?>[] declared = parameterTypes.get(i);
            boxed[i] = new Class<?>[declared.length];
            for (int j = 0; j < declared.length; j++) {
                boxed[i][j] = box(Requires.notNull(declared[j], "parameter type"));
            }
        }
        return new ArgumentTypes(methodName, boxed);
    }

    /**
     * Checks that some overload takes {@code count} arguments.
     *
     * @throws ArgumentTypeException naming the counts the method takes otherwise
     */
    public void checkCount(int count) {
        if (overloads.length == 0) {
            return;
        }
        for (Class<?>[] parameters : overloads) {
            if (parameters.length == count) {
                return;
            }
        }
        throw new ArgumentTypeException(count + " argument(s) for " + describe()
                + " (expected: as many as the method declares)");
    }

    /**
     * Checks that {@code type} may be the class of argument {@code index} of {@code count}; to be called before
     * a value of that class is created.
     *
     * @throws ArgumentTypeException naming the argument, the class and the declared type otherwise
     */
    public void checkClass(int count, int index, Class<?> type) {
        if (overloads.length == 0) {
            return;
        }
        for (Class<?>[] parameters : overloads) {
            if (parameters.length == count && parameters[index].isAssignableFrom(type)) {
                return;
            }
        }
        checkCount(count);
        throw new ArgumentTypeException("argument " + (index + 1) + " of " + count + " for " + describe() + " is a "
                + type.getName() + " (expected: a value assignable to the declared parameter type"
                + (overloads.length == 1 ? " " + overloads[0][index].getName() : "") + ")");
    }

    /**
     * Checks the count and the class of every non-null value of {@code args}.
     *
     * @throws ArgumentTypeException for the first one that does not fit
     */
    public void checkValues(Object[] args) {
        if (overloads.length == 0) {
            return;
        }
        checkCount(args.length);
        for (int i = 0; i < args.length; i++) {
            if (args[i] != null) {
                checkClass(args.length, i, args[i].getClass());
            }
        }
    }

    /** Whether this expects anything beyond the allow-list. */
    public boolean isAny() {
        return overloads.length == 0;
    }

    private String describe() {
        StringBuilder text = new StringBuilder(methodName).append('(');
        for (int i = 0; i < overloads.length; i++) {
            if (i > 0) {
                text.append(" | ");
            }
            for (int j = 0; j < overloads[i].length; j++) {
                text.append(j == 0 ? "" : ", ").append(overloads[i][j].getSimpleName());
            }
        }
        return text.append(')').toString();
    }

    @Override
    public String toString() {
        return overloads.length == 0 ? "ArgumentTypes.ANY" : "ArgumentTypes{" + describe() + '}';
    }

    /** {@code type}'s wrapper class if it is a primitive type ({@code Void} for {@code void}), else {@code type}. */
    public static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        if (type == int.class) {
            return Integer.class;
        }
        if (type == long.class) {
            return Long.class;
        }
        if (type == boolean.class) {
            return Boolean.class;
        }
        if (type == double.class) {
            return Double.class;
        }
        if (type == float.class) {
            return Float.class;
        }
        if (type == short.class) {
            return Short.class;
        }
        if (type == byte.class) {
            return Byte.class;
        }
        return type == char.class ? Character.class : Void.class;
    }
}
