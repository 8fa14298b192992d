package io.jupiter.common.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One setting of the framework: its name, type, default, bounds, system property (with older names accepted as
 * aliases), the line that documents it and where an application sets it. Every setting is declared once, in
 * {@link JupiterSettings}; the settings table of docs/configuration.md is generated from those declarations
 * ({@link SettingsTable}).
 *
 * <p>A builder passes what it is given through {@link #check}, and its default comes from {@link #get()}, which reads
 * the system property and applies the same check; so a value is rejected with the same message whichever way it
 * came, the property's message adding where it came from:
 * <pre>
 * timeoutMillis: -1 (expected: &gt; 0)
 * timeoutMillis: -1 (expected: &gt; 0), from -Djupiter.rpc.invoke.timeout=-1
 * </pre>
 *
 * <p>A <em>composite</em> setting ({@link #composite}) documents what has no single value (a listen address, a set
 * of serializers, a strategy object, an annotation); it has a table row, but {@link #get()} and {@link #check} refuse
 * it: its builder checks it.
 *
 * @param <T> the type of the value
 */
public final class Setting<T> {

    private final String name;
    private final String doc;
    private final ValueType<T> type;
    private final Supplier<T> defaultValue;
    private final String defaultText;
    private final Bound<T> bound;
    private final String accepts;
    private final String property;
    private final List<String> aliases;
    private final String where;

    private Setting(Builder<T> builder) {
        this.name = builder.name;
        this.doc = Objects.requireNonNull(builder.doc, () -> builder.name + ": doc (expected: a line)");
        this.type = builder.type;
        this.defaultValue = builder.defaultValue;
        this.defaultText = builder.defaultText;
        this.bound = builder.bound;
        this.accepts = builder.accepts;
        this.property = builder.property;
        this.aliases = List.copyOf(builder.aliases);
        this.where = builder.where;
        if (property == null && where == null) {
            throw new IllegalArgumentException(name + ": neither a property nor where it is set");
        }
        if (property == null && !aliases.isEmpty()) {
            throw new IllegalArgumentException(name + ": aliases without a property");
        }
    }

    /** A setting of {@code type} whose default is {@code defaultValue}. */
    public static <T> Builder<T> of(String name, ValueType<T> type, T defaultValue) {
        Objects.requireNonNull(defaultValue, "defaultValue");
        return new Builder<>(name, type, () -> defaultValue, String.valueOf(defaultValue));
    }

    /**
     * A setting whose default depends on the machine ({@code defaultValue} is asked on each {@link #get()});
     * {@code defaultText} says how it is computed.
     */
    public static <T> Builder<T> of(String name, ValueType<T> type, Supplier<T> defaultValue, String defaultText) {
        return new Builder<>(name, type, Objects.requireNonNull(defaultValue, "defaultValue"), defaultText);
    }

    /** A setting of {@code type} that is unset (the value {@code null}) unless its property is set. */
    public static <T> Builder<T> optional(String name, ValueType<T> type, String defaultText) {
        return new Builder<>(name, type, () -> null, defaultText);
    }

    /**
     * A row of the table for a setting without a single value, which its builder checks: values set together (water
     * marks, a backoff), a strategy object, an annotation; {@code defaultText} describes the default.
     */
    public static Builder<Void> composite(String name, String defaultText) {
        return new Builder<>(name, null, null, defaultText);
    }

    /**
     * The value of the system property (or of the first alias that is set), else the default ({@code null} for an
     * {@link #optional} setting). The property is read on each call; callers keep the value where it must not change.
     *
     * @throws IllegalArgumentException if the property does not parse or is outside the bounds; the message names the
     *                                  setting, the property, its value and what was expected
     */
    public T get() {
        requireValue();
        if (property != null) {
            T value = fromProperty(property);
            if (value != null) {
                return value;
            }
            for (String alias : aliases) {
                value = fromProperty(alias);
                if (value != null) {
                    return value;
                }
            }
        }
        return defaultValue.get();
    }

    /**
     * Returns {@code value} if it is within the bounds.
     *
     * @throws IllegalArgumentException naming the setting, the value and what was expected
     */
    public T check(T value) {
        requireValue();
        Objects.requireNonNull(value, name);
        if (!bound.accepts(value)) {
            throw new IllegalArgumentException(rejection(value));
        }
        return value;
    }

    /** The default value (for a default that depends on the machine, this machine's). */
    public T defaultValue() {
        requireValue();
        return defaultValue.get();
    }

    /** The name builders and messages use, e.g. {@code maxBodySize}. */
    public String name() {
        return name;
    }

    /** One line saying what the setting does (Markdown). */
    public String doc() {
        return doc;
    }

    /** The default as the table shows it, e.g. {@code 5 MiB}. */
    public String defaultText() {
        return defaultText;
    }

    /** What the setting accepts as the table shows it: the bounds, or the words of a composite setting. */
    public String accepts() {
        if (type == null) {
            return accepts != null ? accepts : "-";
        }
        String values = type == ValueType.BOOLEAN ? "true, false" : bound.isAny() ? type.expected() : bound.toString();
        return accepts != null ? values + " (" + accepts + ")" : values;
    }

    /** The system property, or {@code null} for a setting only builders set. */
    public String property() {
        return property;
    }

    /** Other property names accepted when {@link #property()} is not set (1.3.1's and earlier names), in order. */
    public List<String> aliases() {
        return aliases;
    }

    /** Where an application sets it besides the property (Markdown), or {@code null}. */
    public String where() {
        return where;
    }

    /** Whether this is a {@link #composite} row, without a single value. */
    public boolean isComposite() {
        return type == null;
    }

    @Override
    public String toString() {
        return property == null ? name : name + " (-D" + property + ")";
    }

    private T fromProperty(String key) {
        String text = System.getProperty(key);
        if (text == null || text.isBlank()) {
            return null;
        }
        text = text.trim();
        T value;
        try {
            value = type.parse(text);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException(name + ": '" + text + "' (expected: " + type.expected() + "), from -D"
                    + key, e);
        }
        if (!bound.accepts(value)) {
            throw new IllegalArgumentException(rejection(value) + ", from -D" + key + "=" + text);
        }
        return value;
    }

    private String rejection(T value) {
        return name + ": " + value + " (expected: " + bound + ")";
    }

    private void requireValue() {
        if (type == null) {
            throw new UnsupportedOperationException(name + " is a composite setting: its builder checks it");
        }
    }

    /**
     * Declares a {@link Setting}.
     *
     * @param <T> the type of the value
     */
    public static final class Builder<T> {
        private final String name;
        private final ValueType<T> type;
        private final Supplier<T> defaultValue;
        private String defaultText;
        private Bound<T> bound = Bound.any();
        private String accepts;
        private String doc;
        private String property;
        private final List<String> aliases = new ArrayList<>();
        private String where;

        private Builder(String name, ValueType<T> type, Supplier<T> defaultValue, String defaultText) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name: '" + name + "' (expected: not blank)");
            }
            this.name = name;
            this.type = type;
            this.defaultValue = defaultValue;
            this.defaultText = Objects.requireNonNull(defaultText, "defaultText");
        }

        /** The values accepted; every value by default. */
        public Builder<T> bound(Bound<T> bound) {
            this.bound = Objects.requireNonNull(bound, "bound");
            return this;
        }

        /** A note on the accepted values (e.g. {@code 0: no limit}), or a composite setting's accepted values. */
        public Builder<T> accepts(String text) {
            this.accepts = text;
            return this;
        }

        /** The one line that documents the setting (Markdown). */
        public Builder<T> doc(String line) {
            this.doc = line;
            return this;
        }

        /** How the table shows the default, when not the value itself (e.g. {@code 5 MiB}). */
        public Builder<T> defaultText(String text) {
            this.defaultText = Objects.requireNonNull(text, "defaultText");
            return this;
        }

        /** The system property that sets it. */
        public Builder<T> property(String key) {
            this.property = Objects.requireNonNull(key, "property");
            return this;
        }

        /** Older names of the property, read when it is not set (1.3.1's names, names renamed since). */
        public Builder<T> alias(String... keys) {
            aliases.addAll(List.of(keys));
            return this;
        }

        /** Where an application sets it in code (Markdown): builder methods, annotations, ... */
        public Builder<T> where(String text) {
            this.where = text;
            return this;
        }

        /**
         * The setting.
         *
         * @throws IllegalArgumentException if it has neither property nor {@link #where}, or if a default that does
         *                                  not depend on the machine is outside the bounds
         */
        public Setting<T> build() {
            Setting<T> setting = new Setting<>(this);
            T value = type == null ? null : defaultValue.get();
            if (value != null) {
                setting.check(value);
            }
            return setting;
        }
    }
}
