package io.jupiter.serialization;

/**
 * A request's envelope is not one envelope: a service or method field that repeats, or that arrives after the
 * envelope was handed to the {@link EnvelopeListener} (and so after the request was looked up and authorized), or a
 * field the request does not have. Reading stopped there; a provider answers {@code BAD_REQUEST} and keeps the
 * connection, and no method runs: what is authorized is what would be dispatched, or nothing is.
 */
public final class EnvelopeException extends SerializationException {

    private static final long serialVersionUID = 1L;

    public EnvelopeException(String message) {
        super(message);
    }

    /** The first {@code EnvelopeException} in {@code t}'s cause chain, or {@code null}. */
    public static EnvelopeException findIn(Throwable t) {
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof EnvelopeException) {
                return (EnvelopeException) t;
            }
        }
        return null;
    }
}
