package io.jupiter.benchmark.driver;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** {@code --name value} command-line flags, checked against the flags a command knows. */
public final class Flags {

    private final Map<String, String> values = new HashMap<>();

    public Flags(String[] args, int from, Set<String> known) {
        for (int i = from; i < args.length; i++) {
            String flag = args[i];
            if (!flag.startsWith("--") || !known.contains(flag.substring(2))) {
                throw new IllegalArgumentException("unknown flag '" + flag + "' (known: --" + String.join(", --",
                        known.stream().sorted().toList()) + ")");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("flag " + flag + " needs a value");
            }
            values.put(flag.substring(2), args[++i]);
        }
    }

    public String get(String name, String defaultValue) {
        return values.getOrDefault(name, defaultValue);
    }

    public int getInt(String name, int defaultValue, int min, int max) {
        String value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed < min || parsed > max) {
                throw new IllegalArgumentException("--" + name + " " + value + " (expected: " + min + ".." + max + ")");
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " " + value + " (expected: an integer)", e);
        }
    }

    /** {@code true} or {@code false}. */
    public boolean getBoolean(String name, boolean defaultValue) {
        return Boolean.parseBoolean(oneOf(name, Boolean.toString(defaultValue), "true", "false"));
    }

    public String oneOf(String name, String defaultValue, String... allowed) {
        String value = get(name, defaultValue);
        for (String candidate : allowed) {
            if (candidate.equals(value)) {
                return value;
            }
        }
        throw new IllegalArgumentException("--" + name + " " + value + " (expected: " + String.join("|", allowed) + ")");
    }
}
