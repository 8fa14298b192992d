package io.jupiter.testkit.suites.serialization.model;

/** A checked exception of the samples: it must travel as a result with its type and message. */
public class SampleCheckedException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with {@code message}.
     *
     * @param message the detail message
     */
    public SampleCheckedException(String message) {
        super(message);
    }
}
