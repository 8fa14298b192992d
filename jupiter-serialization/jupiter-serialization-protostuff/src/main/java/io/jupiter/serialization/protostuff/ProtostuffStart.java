package io.jupiter.serialization.protostuff;

import io.protostuff.runtime.RuntimeEnv;
import java.util.List;
import java.util.Optional;

/**
 * Starts protostuff in its reflective mode, without {@code sun.misc.Unsafe} (on JDK 24 and later the JVM prints four
 * {@code WARNING:} lines at the first call of one of its memory methods), where that gives the same bytes.
 *
 * <p>Protostuff decides once per JVM, when its {@code RuntimeEnv} initialises, from the system property
 * {@code protostuff.runtime.use_sun_misc_unsafe}. Its reflective mode reads and sets the same fields in the same
 * order as its {@code Unsafe} mode, so it writes the same bytes, but only where reflection may open them: the JDK's
 * private fields (a throwable's, {@code StackTraceElement}'s, {@code java.time}'s, ...) only if the JVM opens their
 * packages to protostuff ({@code --add-opens}, or {@code Add-Opens} in the manifest of the jar run with
 * {@code java -jar}). Forms of our own on public API cannot give those bytes (docs/protocol.md, "Protostuff").
 * So {@link #ensure()}, called before protostuff is used, sets the property to {@code false} only when it is not set
 * and every package of {@link #OPENED} is open to protostuff's module, initialises {@code RuntimeEnv} at once and
 * puts the property back as it was. Otherwise protostuff keeps its {@code Unsafe} mode (and the warning).
 *
 * <p>The decision holds for the whole JVM: other users of protostuff in it get the same mode. Set
 * {@code -Dprotostuff.runtime.use_sun_misc_unsafe=true} to keep the {@code Unsafe} mode. In the reflective mode, a
 * value of a JDK class outside these packages whose fields protostuff writes one by one fails to be written instead
 * (the {@code Unsafe} mode reads any field). If protostuff was initialised before Jupiter's serializer, its mode is
 * already fixed and this class changes nothing.
 */
final class ProtostuffStart {

    /** Protostuff's switch, read once when its {@code RuntimeEnv} initialises. */
    static final String UNSAFE_PROPERTY = "protostuff.runtime.use_sun_misc_unsafe";

    /**
     * The packages ({@code module/package}) whose classes' private fields protostuff must reach: those of the JDK
     * values listed in docs/protocol.md, and those of the JDK's exceptions with fields of their own that a service
     * may well throw ({@code InvocationTargetException}, {@code DateTimeParseException}, {@code ParseException},
     * {@code FileSystemException}, ...). A module the runtime lacks is not asked for.
     */
    static final List<String> OPENED = List.of("java.base/java.lang", "java.base/java.lang.reflect",
            "java.base/java.util", "java.base/java.util.concurrent", "java.base/java.util.concurrent.atomic",
            "java.base/java.util.regex", "java.base/java.time", "java.base/java.time.format",
            "java.base/java.time.zone", "java.base/java.math", "java.base/java.net", "java.base/java.io",
            "java.base/java.nio.file", "java.base/java.nio.charset", "java.base/java.text",
            "java.base/sun.util.calendar", "java.sql/java.sql", "java.management/javax.management");

    /** Whether protostuff started in its reflective mode because of this class. */
    static final boolean REFLECTIVE;

    static {
        String chosen = System.getProperty(UNSAFE_PROPERTY);
        REFLECTIVE = reflective(chosen, opened(RuntimeEnv.class.getModule()));
        if (REFLECTIVE) {
            System.setProperty(UNSAFE_PROPERTY, "false");
        }
        try {
            initialise(RuntimeEnv.class.getName());
        } finally {
            if (REFLECTIVE) {
                System.clearProperty(UNSAFE_PROPERTY);
            }
        }
    }

    private ProtostuffStart() {
    }

    /** Makes sure protostuff has started as described above; does nothing after the first call. */
    static void ensure() {
        // The work is this class's initialisation.
    }

    /** Whether to start protostuff reflectively: the user chose nothing and the packages are open. */
    static boolean reflective(String chosen, boolean opened) {
        return chosen == null && opened;
    }

    /** Whether every package of {@link #OPENED} that the runtime has is open to {@code module}. */
    static boolean opened(Module module) {
        for (String entry : OPENED) {
            int slash = entry.indexOf('/');
            Optional<Module> owner = ModuleLayer.boot().findModule(entry.substring(0, slash));
            if (owner.isPresent() && !owner.get().isOpen(entry.substring(slash + 1), module)) {
                return false;
            }
        }
        return true;
    }

    private static void initialise(String name) {
        try {
            Class.forName(name, true, ProtostuffStart.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("protostuff: " + name + " is missing", e);
        }
    }
}
