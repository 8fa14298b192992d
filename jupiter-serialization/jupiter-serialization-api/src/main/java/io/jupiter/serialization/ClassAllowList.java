package io.jupiter.serialization;

import io.jupiter.common.LogText;
import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.serialization.internal.BuiltInClassRules;
import io.jupiter.serialization.internal.ServiceTypeScanner;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which classes a serializer may create from names read off the wire. Every serializer asks {@link #check} where it
 * reads a class name, before the class is loaded, so a refused class never has its static initializer or a
 * constructor run.
 *
 * <p>Trusted without configuration: the JDK's value types ({@code String}, boxed primitives, {@code java.math},
 * {@code java.time}, the collections, maps, {@code Date}, {@code UUID}, {@code Optional} ... of {@code java.util}
 * and {@code java.util.concurrent}), the {@code ...Exception}/{@code ...Error} classes of {@code java.lang},
 * {@code java.io}, {@code java.util}, ... (they travel as errors), {@code StackTraceElement}, arrays of trusted
 * types, and Jupiter's wire classes under their own and Jupiter 1.3.1's names. The RPC layer adds the types of
 * every service interface it registers or builds a proxy for ({@link #trustTypesOf}). Add classes or packages for
 * values whose declared type says nothing, such as a field declared {@code Object}. Some names are never trusted,
 * even when asked: known gadget packages ({@code org.apache.commons.collections}, {@code org.springframework},
 * {@code com.mchange}, {@code sun.*}, {@code com.sun.*}, ...) and JDK classes that run code ({@code Runtime},
 * {@code ProcessBuilder}, {@code java.lang.reflect}, {@code javax.management}, {@code java.rmi}, ...).
 *
 * <p>Trust only grows; decisions are cached per class name, so a check of a name seen before is one map lookup
 * without locks or allocation. The mode decides what happens to a class that is not trusted: {@link Mode#STRICT}
 * (the default) refuses it with a {@link ClassNotTrustedException}, {@link Mode#WARN} logs it once and lets it
 * through, {@link Mode#OFF} checks nothing. The default mode comes from {@code -Djupiter.serialization.allowlist=
 * strict|warn|off}.
 */
public final class ClassAllowList {

    /** The system property holding the default mode. */
    public static final String MODE_PROPERTY = JupiterSettings.ALLOWLIST_MODE.property();

    /** What happens to a class that is not trusted. */
    public enum Mode {
        /** Refused: the read fails with {@link ClassNotTrustedException}. */
        STRICT,
        /** Allowed, with one WARN line per class name. */
        WARN,
        /** Nothing is checked. */
        OFF;

        /**
         * The mode named {@code id} (case-insensitive).
         *
         * @throws IllegalArgumentException naming the expected values otherwise
         */
        public static Mode parse(String id) {
            String wanted = id == null ? "" : id.trim().toUpperCase(Locale.ROOT);
            for (Mode mode : values()) {
                if (mode.name().equals(wanted)) {
                    return mode;
                }
            }
            throw new IllegalArgumentException(MODE_PROPERTY + ": '" + id + "' (expected: strict, warn or off)");
        }
    }

    private static final Logger log = LoggerFactory.getLogger(ClassAllowList.class);

    /** Cached decisions beyond this many names are recomputed on each check (bounds memory under attack). */
    private static final int MAX_CACHED_DECISIONS = 16_384;
    /** Warned names beyond this many are no longer remembered (nor logged). */
    private static final int MAX_WARNED = 4_096;

    private static final ClassAllowList GLOBAL = new ClassAllowList(
            Mode.parse(JupiterSettings.ALLOWLIST_MODE.get()));

    private volatile Mode mode;
    private final Set<String> names = ConcurrentHashMap.newKeySet();
    private final List<String> packages = new CopyOnWriteArrayList<>();
    private final ConcurrentHashMap<String, Boolean> decisions = new ConcurrentHashMap<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    private ClassAllowList(Mode mode) {
        this.mode = mode;
    }

    /** The process-wide list every serializer found by {@link Serializers} uses. */
    public static ClassAllowList global() {
        return GLOBAL;
    }

    /** A new list with the built-in rules only, in {@code mode}; for serializers built by hand and for tests. */
    public static ClassAllowList create(Mode mode) {
        return new ClassAllowList(Requires.notNull(mode, "mode"));
    }

    public Mode mode() {
        return mode;
    }

    /** Sets the mode; takes effect for the next class name read. */
    public ClassAllowList mode(Mode mode) {
        this.mode = Requires.notNull(mode, "mode");
        return this;
    }

    /**
     * Trusts these classes (for an array, its element class) and their superclasses.
     *
     * @throws IllegalArgumentException if one of them is never trusted
     */
    public ClassAllowList trust(Class<?>... types) {
        for (Class<?> type : types) {
            Class<?> element = Requires.notNull(type, "type");
            while (element.isArray()) {
                element = element.getComponentType();
            }
            if (element.isPrimitive()) {
                continue;
            }
            trustName(element.getName());
            for (Class<?> c = element.getSuperclass(); c != null; c = c.getSuperclass()) {
                if (!BuiltInClassRules.neverTrusted(c.getName())) {
                    names.add(c.getName());
                }
            }
        }
        decisions.clear();
        return this;
    }

    /**
     * Trusts the class of this name (for classes that may be absent here, such as a peer's names).
     *
     * @throws IllegalArgumentException if it is never trusted
     */
    public ClassAllowList trustName(String className) {
        Requires.notBlank(className, "className");
        Requires.argument(!BuiltInClassRules.neverTrusted(className),
                className + " is never trusted for deserialization (it can run code named by a peer)");
        names.add(className);
        decisions.clear();
        return this;
    }

    /**
     * Trusts every class in {@code packageName} and its subpackages (except names that are never trusted).
     *
     * @throws IllegalArgumentException if the package is one of those never trusted, or has a single segment
     *                                  ({@code "com"}, {@code "org"}: that would trust half the class path)
     */
    public ClassAllowList trustPackage(String packageName) {
        String prefix = Requires.notBlank(packageName, "packageName").trim();
        prefix = prefix.endsWith(".") ? prefix : prefix + '.';
        Requires.argument(prefix.indexOf('.') < prefix.length() - 1, "trustPackage(\"" + packageName
                + "\"): a one-segment prefix would trust every library under it; name your own package, e.g. "
                + "\"com.example.model\"");
        Requires.argument(!BuiltInClassRules.neverTrusted(prefix),
                packageName + " is never trusted for deserialization (it can run code named by a peer)");
        if (!packages.contains(prefix)) {
            packages.add(prefix);
        }
        decisions.clear();
        return this;
    }

    /**
     * Trusts the types the calls of {@code serviceInterface} carry: its methods' parameter, return and declared
     * exception types with their generic type arguments, and the field types of those classes, recursively (at most
     * {@value ServiceTypeScanner#MAX_CLASSES} classes). Types that are never trusted are skipped.
     */
    public ClassAllowList trustTypesOf(Class<?> serviceInterface) {
        Requires.notNull(serviceInterface, "serviceInterface");
        for (Class<?> type : ServiceTypeScanner.scan(serviceInterface)) {
            names.add(type.getName());
        }
        decisions.clear();
        return this;
    }

    /** Whether {@code className} (a wire name; arrays as {@code [Lname;}) is trusted, whatever the mode. */
    public boolean isTrusted(String className) {
        Boolean decided = decisions.get(className);
        if (decided == null) {
            decided = decide(className);
            if (decisions.size() < MAX_CACHED_DECISIONS) {
                decisions.put(className, decided);
            }
        }
        return decided;
    }

    /**
     * Lets {@code className} through, or refuses it as the mode says. Call where a class name is read from the
     * wire, before the class is loaded.
     *
     * @param serializer the serializer's id, for the message
     * @throws ClassNotTrustedException in {@link Mode#STRICT} if the class is not trusted
     */
    public void check(String serializer, String className) {
        Mode current = mode;
        if (current == Mode.OFF || isTrusted(className)) {
            return;
        }
        if (current == Mode.STRICT) {
            throw new ClassNotTrustedException(serializer, className);
        }
        if (warned.size() < MAX_WARNED && warned.add(className)) {
            log.warn("{}: class '{}' is not trusted for deserialization; allowed because the allow-list is in WARN"
                    + " mode (trust it with ClassAllowList.global().trust(...) or trustPackage(...))",
                    serializer, LogText.of(className));
        }
    }

    private boolean decide(String className) {
        if (className == null || className.isEmpty()) {
            return false;
        }
        String name = elementName(className);
        if (name == null) {
            return true; // an array of primitives
        }
        if (BuiltInClassRules.neverTrusted(name)) {
            return false;
        }
        if (BuiltInClassRules.trustedByDefault(name) || names.contains(name)) {
            return true;
        }
        for (String prefix : packages) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The element class name of an array name ({@code [[Lx.Y;} gives {@code x.Y}); null for primitive arrays. */
    private static String elementName(String name) {
        int dims = 0;
        while (dims < name.length() && name.charAt(dims) == '[') {
            dims++;
        }
        if (dims == 0) {
            return name;
        }
        String rest = name.substring(dims);
        if (rest.length() == 1 && "ZBCSIJFD".indexOf(rest.charAt(0)) >= 0) {
            return null;
        }
        if (rest.length() > 2 && rest.charAt(0) == 'L' && rest.charAt(rest.length() - 1) == ';') {
            return rest.substring(1, rest.length() - 1);
        }
        return rest;
    }
}
