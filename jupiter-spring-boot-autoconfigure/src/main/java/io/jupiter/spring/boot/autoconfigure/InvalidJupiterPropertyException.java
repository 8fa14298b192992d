package io.jupiter.spring.boot.autoconfigure;

/** A {@code jupiter.*} property, or a {@code @JupiterReference} attribute, has a value that cannot be used. */
public class InvalidJupiterPropertyException extends IllegalStateException {

    /** With a message naming the property, its value and what was expected. */
    public InvalidJupiterPropertyException(String message, Throwable cause) {
        super(message, cause);
    }
}
