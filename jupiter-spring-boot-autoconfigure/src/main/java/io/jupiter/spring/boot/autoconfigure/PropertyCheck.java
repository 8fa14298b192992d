package io.jupiter.spring.boot.autoconfigure;

import java.util.function.Consumer;

/**
 * Hands a property's value to a builder setter when it is set, and turns the setter's refusal into a failure that
 * names the property: {@code jupiter.server.port = 70000: port: 70000 (expected: 0 to 65535)}.
 */
final class PropertyCheck {

    private PropertyCheck() {
    }

    /** Calls {@code setter} with {@code value} unless it is null. */
    static <T> void apply(String property, T value, Consumer<T> setter) {
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw invalid(property, value, e);
        }
    }

    /** A failure naming {@code property}, its {@code value} and why it was refused. */
    static InvalidJupiterPropertyException invalid(String property, Object value, RuntimeException cause) {
        return new InvalidJupiterPropertyException(property + " = " + value + ": " + cause.getMessage(), cause);
    }

    /** A failure naming {@code property} and {@code message}. */
    static InvalidJupiterPropertyException invalid(String property, String message) {
        return new InvalidJupiterPropertyException(property + ": " + message, null);
    }
}
