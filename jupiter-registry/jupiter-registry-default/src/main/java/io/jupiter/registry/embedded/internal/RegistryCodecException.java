package io.jupiter.registry.embedded.internal;

/** A registry body that cannot be read or written. */
public final class RegistryCodecException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RegistryCodecException(String message) {
        super(message);
    }
}
