package io.jupiter.serialization;

/**
 * A body broke one of the {@link ReadLimits}: a length larger than the bytes left to hold it, values nested too
 * deep, or too many references. The read stopped before allocating what the body asked for. The frame itself was
 * well formed, so a provider answers {@code BAD_REQUEST} and keeps the connection.
 */
public final class ReadLimitException extends SerializationException {

    private static final long serialVersionUID = 1L;

    public ReadLimitException(String message) {
        super(message);
    }

    private ReadLimitException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The same breach, with a message that also says which serializer and what was being read. */
    public ReadLimitException reading(String serializer, Class<?> type) {
        return new ReadLimitException(serializer + ": cannot read " + type.getName() + ": " + getMessage(), this);
    }

    /**
     * A read that ran out of memory or stack anyway (a limit these checks do not cover): reported as a breach, so
     * that the error stays in the reading thread and the peer gets an answer.
     */
    public static ReadLimitException exhausted(String serializer, Class<?> type, VirtualMachineError error) {
        return new ReadLimitException(serializer + ": cannot read " + type.getName() + ": ran out of "
                + (error instanceof StackOverflowError ? "stack" : "memory"), error);
    }

    /** The first {@code ReadLimitException} in {@code t}'s cause chain, or {@code null}. */
    public static ReadLimitException findIn(Throwable t) {
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof ReadLimitException) {
                return (ReadLimitException) t;
            }
        }
        return null;
    }
}
