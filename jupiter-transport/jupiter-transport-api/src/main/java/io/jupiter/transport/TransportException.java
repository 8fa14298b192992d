package io.jupiter.transport;

/** A transport-level failure: bind, connect or write. */
public class TransportException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TransportException(String message) {
        super(message);
    }

    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
