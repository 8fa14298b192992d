package io.jupiter.serialization;

/**
 * A request's argument is not of a type the called method declares: a value (or, where the format names a class
 * before the value, that class) that no parameter of the method at its position accepts. The read stopped there;
 * a provider answers {@code BAD_REQUEST} and keeps the connection. See {@link ArgumentTypes}.
 */
public final class ArgumentTypeException extends SerializationException {

    private static final long serialVersionUID = 1L;

    public ArgumentTypeException(String message) {
        super(message);
    }

    /** The first {@code ArgumentTypeException} in {@code t}'s cause chain, or {@code null}. */
    public static ArgumentTypeException findIn(Throwable t) {
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof ArgumentTypeException) {
                return (ArgumentTypeException) t;
            }
        }
        return null;
    }
}
