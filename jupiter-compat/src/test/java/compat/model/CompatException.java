package compat.model;

/** A checked exception the service declares; same class on both sides. */
public class CompatException extends Exception {

    private static final long serialVersionUID = 1L;

    public CompatException(String message) {
        super(message);
    }
}
