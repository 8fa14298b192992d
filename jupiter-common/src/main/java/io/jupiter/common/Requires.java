package io.jupiter.common;

/**
 * One-line argument checks for public boundaries. Each returns its argument so it can be used inline, and each
 * message names the argument, its value and what was expected.
 */
public final class Requires {

    private Requires() {
    }

    /** Returns {@code value}, or throws {@link NullPointerException} naming {@code name}. */
    public static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new NullPointerException(name);
        }
        return value;
    }

    /** Returns {@code value} if it is not null and not blank. */
    public static String notBlank(String value, String name) {
        notNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + ": '" + value + "' (expected: not blank)");
        }
        return value;
    }

    /** Returns {@code value} if it is &gt; 0. */
    public static int positive(int value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
        return value;
    }

    /** Returns {@code value} if it is &gt; 0. */
    public static long positive(long value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
        }
        return value;
    }

    /** Returns {@code value} if it is &gt;= 0. */
    public static int notNegative(int value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
        }
        return value;
    }

    /** Returns {@code value} if it is &gt;= 0. */
    public static long notNegative(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
        }
        return value;
    }

    /** Returns {@code value} if {@code min <= value <= max}. */
    public static int inRange(int value, int min, int max, String name) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: " + min + ".." + max + ")");
        }
        return value;
    }

    /** Throws {@link IllegalArgumentException} with {@code message} unless {@code condition} holds. */
    public static void argument(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
