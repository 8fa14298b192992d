package io.jupiter.benchmark.driver;

/**
 * The benchmark payloads, each the one string argument of {@code hello}: {@code small} is 1.3.1's
 * {@code hello("jupiter")}; the others are that many ASCII characters (one byte each once serialized):
 * {@code 16b} 16, {@code 1k} 1,024, {@code 16k} 16,384, {@code 256k} 262,144 and {@code 1m} 1,048,576 (the
 * body-size cost curve).
 */
public final class Payloads {

    /** The names {@code --payload} takes. */
    public static final String[] NAMES = {"small", "16b", "1k", "16k", "256k", "1m"};

    private Payloads() {
    }

    /** The payload called {@code name}. */
    public static String of(String name) {
        return switch (name) {
            case "small" -> "jupiter";
            case "16b" -> "j".repeat(16);
            case "1k" -> "j".repeat(1024);
            case "16k" -> "j".repeat(16 * 1024);
            case "256k" -> "j".repeat(256 * 1024);
            case "1m" -> "j".repeat(1024 * 1024);
            default -> throw new IllegalArgumentException("--payload " + name + " (expected: "
                    + String.join("|", NAMES) + ")");
        };
    }
}
