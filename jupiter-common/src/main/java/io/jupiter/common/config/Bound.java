package io.jupiter.common.config;

import java.util.function.Predicate;

/**
 * The values a {@link Setting} accepts, with the text error messages and the configuration table show for them
 * ({@code "> 0"}, {@code "1..64"}, ...).
 *
 * @param <T> the type of the value
 */
public final class Bound<T> {

    private final Predicate<T> accepts;
    private final String text;

    private Bound(Predicate<T> accepts, String text) {
        this.accepts = accepts;
        this.text = text;
    }

    /** Every value. */
    public static <T> Bound<T> any() {
        return new Bound<>(value -> true, "any");
    }

    /** Values &gt; 0. */
    public static <N extends Number> Bound<N> positive() {
        return new Bound<>(value -> value.longValue() > 0, "> 0");
    }

    /** Values &gt;= 0. */
    public static <N extends Number> Bound<N> notNegative() {
        return new Bound<>(value -> value.longValue() >= 0, ">= 0");
    }

    /** Values from {@code min} to {@code max}, both included. */
    public static <N extends Number> Bound<N> between(long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException("between: " + min + ".." + max + " (expected: min <= max)");
        }
        return new Bound<>(value -> value.longValue() >= min && value.longValue() <= max, min + ".." + max);
    }

    /** Whether this bound accepts every value. */
    public boolean isAny() {
        return "any".equals(text);
    }

    /** Whether {@code value} is within this bound. */
    public boolean accepts(T value) {
        return accepts.test(value);
    }

    /** What this bound accepts, as error messages say it after "expected: ". */
    @Override
    public String toString() {
        return text;
    }
}
