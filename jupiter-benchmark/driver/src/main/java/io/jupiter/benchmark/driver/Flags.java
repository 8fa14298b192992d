package io.jupiter.benchmark.driver;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code --name value} command-line flags, checked against the flags a command knows; a switch ({@code --name}
 * alone) is a flag that takes no value.
 */
public final class Flags {

    private final Map<String, String> values = new HashMap<>();

    public Flags(String[] args, int from, Set<String> known) {
        this(args, from, known, Set.of());
    }

    /** Flags of which {@code switches} (also in {@code known}) take no value: present, {@link #has} says so. */
    public Flags(String[] args, int from, Set<String> known, Set<String> switches) {
        for (int i = from; i < args.length; i++) {
            String flag = args[i];
            if (!flag.startsWith("--") || !known.contains(flag.substring(2))) {
                throw new IllegalArgumentException("unknown flag '" + flag + "' (known: --" + String.join(", --",
                        known.stream().sorted().toList()) + ")");
            }
            if (switches.contains(flag.substring(2))) {
                values.put(flag.substring(2), "true");
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("flag " + flag + " needs a value");
            }
            values.put(flag.substring(2), args[++i]);
        }
    }

    /** Whether the flag (or switch) was given. */
    public boolean has(String name) {
        return values.containsKey(name);
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
        throw new IllegalArgumentException(
                "--" + name + " " + value + " (expected: " + String.join("|", allowed) + ")");
    }
}
