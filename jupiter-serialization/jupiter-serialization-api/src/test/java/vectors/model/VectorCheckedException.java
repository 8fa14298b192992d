package vectors.model;

/** The 1.3.1 vectors' declared (checked) exception. */
public class VectorCheckedException extends Exception {

    private static final long serialVersionUID = 1L;

    public VectorCheckedException(String message) {
        super(message);
    }
}
