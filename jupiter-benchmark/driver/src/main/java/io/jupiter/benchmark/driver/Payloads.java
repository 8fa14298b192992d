package io.jupiter.benchmark.driver;

/** The benchmark payloads: {@code small} is 1.3.1's {@code hello("jupiter")}, {@code 1k} a 1,024-character string. */
public final class Payloads {

    /** The names {@code --payload} takes. */
    public static final String[] NAMES = {"small", "1k"};

    private Payloads() {
    }

    /** The payload called {@code name}. */
    public static String of(String name) {
        return switch (name) {
            case "small" -> "jupiter";
            case "1k" -> "j".repeat(1024);
            default -> throw new IllegalArgumentException("--payload " + name + " (expected: small|1k)");
        };
    }
}
