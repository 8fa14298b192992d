package vectors.model;

/** The 1.3.1 vectors' enum. */
public enum Color {
    RED, GREEN, BLUE
}
