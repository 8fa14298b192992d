package io.jupiter.common.config;

import java.util.List;
import java.util.Locale;

/**
 * How the text of a system property becomes a value of a {@link Setting}: an integer, a boolean, one word of a
 * fixed set, ... A text that does not parse is an error naming what was expected, never a silent default.
 *
 * @param <T> the type of the value
 */
public abstract class ValueType<T> {

    /** A decimal {@code int}. */
    public static final ValueType<Integer> INT = new ValueType<>("an integer") {
        @Override
        Integer parse(String text) {
            return Integer.parseInt(text);
        }
    };

    /** A decimal {@code long}. */
    public static final ValueType<Long> LONG = new ValueType<>("an integer") {
        @Override
        Long parse(String text) {
            return Long.parseLong(text);
        }
    };

    /** {@code true} or {@code false}, in any case. */
    public static final ValueType<Boolean> BOOLEAN = new ValueType<>("true or false") {
        @Override
        Boolean parse(String text) {
            if (text.equalsIgnoreCase("true")) {
                return true;
            }
            if (text.equalsIgnoreCase("false")) {
                return false;
            }
            throw new IllegalArgumentException(text);
        }
    };

    /** A whole number of seconds in the property, held in milliseconds (as 1.3.1's idle times). */
    public static final ValueType<Long> SECONDS_AS_MILLIS = new ValueType<>("an integer number of seconds") {
        @Override
        Long parse(String text) {
            return Math.multiplyExact(Long.parseLong(text), 1000L);
        }
    };

    private final String expected;

    private ValueType(String expected) {
        this.expected = expected;
    }

    /** One of {@code words}, in any case; the value is the word in lower case. */
    public static ValueType<String> oneOf(String... words) {
        List<String> choices = List.of(words);
        String expected = choices.size() == 1 ? choices.get(0)
                : String.join(", ", choices.subList(0, choices.size() - 1)) + " or " + choices.get(choices.size() - 1);
        return new ValueType<>(expected) {
            @Override
            String parse(String text) {
                String word = text.toLowerCase(Locale.ROOT);
                if (!choices.contains(word)) {
                    throw new IllegalArgumentException(text);
                }
                return word;
            }
        };
    }

    /** Any text (trimmed, not blank), described by {@code expected}: "a file path", "a host name or address", ... */
    public static ValueType<String> text(String expected) {
        return new ValueType<>(expected) {
            @Override
            String parse(String text) {
                return text;
            }
        };
    }

    /** What a text must look like, for error messages: "an integer", "true or false", ... */
    public String expected() {
        return expected;
    }

    /**
     * The value of {@code text} (trimmed, not blank).
     *
     * @throws IllegalArgumentException or {@link ArithmeticException} if it is not one
     */
    abstract T parse(String text);
}
