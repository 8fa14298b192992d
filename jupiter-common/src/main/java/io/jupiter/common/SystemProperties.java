package io.jupiter.common;

/**
 * Reads {@code jupiter.*} system properties with typed defaults. A malformed value is an error, not a silent default:
 * a typo in a production flag should stop the process at start-up.
 */
public final class SystemProperties {

    private SystemProperties() {
    }

    /** The property's value, or {@code defaultValue} when it is unset or blank. */
    public static String get(String key, String defaultValue) {
        String value = System.getProperty(key);
        return value == null || value.isBlank() ? defaultValue : value.trim();
    }

    /** The property as an int, or {@code defaultValue} when unset. */
    public static int getInt(String key, int defaultValue) {
        String value = get(key, null);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + key + ": '" + value + "' (expected: an integer)", e);
        }
    }

    /** The property as a long, or {@code defaultValue} when unset. */
    public static long getLong(String key, long defaultValue) {
        String value = get(key, null);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + key + ": '" + value + "' (expected: an integer)", e);
        }
    }

    /** The property as a boolean ({@code true}/{@code false}), or {@code defaultValue} when unset. */
    public static boolean getBoolean(String key, boolean defaultValue) {
        String value = get(key, null);
        if (value == null) {
            return defaultValue;
        }
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("system property " + key + ": '" + value + "' (expected: true or false)");
    }
}
