package io.jupiter.serialization.hessian;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Starts Hessian 4.0.66 without calling {@code sun.misc.Unsafe}'s memory methods (on JDK 24 and later the JVM prints
 * four {@code WARNING:} lines at the first such call).
 *
 * <p>Hessian decides once per JVM, when its {@code UnsafeSerializer} and {@code UnsafeDeserializer} initialise,
 * whether it uses {@code Unsafe}; only the system property {@code com.caucho.hessian.unsafe=false} turns it off. Its
 * own static initialisers (the {@code HessianRemote} reader of {@code SerializerFactory}, the
 * {@code StackTraceElement} reader of {@code ContextSerializerFactory}) then build their field readers by reflection
 * instead of taking {@code Unsafe} field offsets. {@link #ensure()}, called before any Hessian class is used, sets the
 * property unless it is already set, initialises those Hessian classes at once (so the decision does not depend on
 * which class loads later) and puts the property back as it was.
 *
 * <p>Reflection may not open {@code StackTraceElement}'s private fields, and Hessian prints each refusal with
 * {@code printStackTrace()} while {@code ContextSerializerFactory} initialises (its reader is never used: ours reads
 * that class, {@link StackTraceElementForm}). Those eight traces are dropped; anything else written to
 * {@code System.err} in that moment is written on unchanged.
 *
 * <p>The decision holds for the whole JVM: other users of Hessian in it get its reflective mode too (the same bytes).
 * Set {@code -Dcom.caucho.hessian.unsafe=true} to keep Hessian's {@code Unsafe} mode (and the warning). If Hessian
 * was initialised before Jupiter's serializer, its mode is already fixed and this class changes nothing.
 */
final class HessianStart {

    /** Hessian's switch, read by its {@code Unsafe*} classes when they initialise. */
    static final String UNSAFE_PROPERTY = "com.caucho.hessian.unsafe";

    /** Whether Hessian's {@code Unsafe} forms may still be used for the classes our own forms cannot read. */
    static final boolean UNSAFE_FALLBACK;

    private static final String[] DECIDING_CLASSES = {
            "com.caucho.hessian.io.UnsafeSerializer",
            "com.caucho.hessian.io.UnsafeDeserializer",
            "com.caucho.hessian.io.FieldDeserializer2FactoryUnsafe",
    };

    static {
        String chosen = System.getProperty(UNSAFE_PROPERTY);
        UNSAFE_FALLBACK = !"false".equals(chosen);
        if (chosen == null) {
            System.setProperty(UNSAFE_PROPERTY, "false");
        }
        try {
            for (String name : DECIDING_CLASSES) {
                initialise(name);
            }
        } finally {
            if (chosen == null) {
                System.clearProperty(UNSAFE_PROPERTY);
            }
        }
        initialise("com.caucho.hessian.io.SerializerFactory");
        initialiseDroppingStackTraceElementRefusals("com.caucho.hessian.io.ContextSerializerFactory");
    }

    private HessianStart() {
    }

    /** Makes sure Hessian has started as described above; does nothing after the first call. */
    static void ensure() {
        // The work is this class's initialisation.
    }

    private static void initialise(String name) {
        try {
            Class.forName(name, true, HessianStart.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("hessian: " + name + " is missing", e);
        }
    }

    /**
     * Initialises {@code name} with {@code System.err} held back, then writes on what was held back unless it is only
     * Hessian's traces of reflection refused on {@code StackTraceElement}'s fields.
     */
    private static void initialiseDroppingStackTraceElementRefusals(String name) {
        PrintStream err = System.err;
        ByteArrayOutputStream held = new ByteArrayOutputStream();
        System.setErr(new PrintStream(held, true, StandardCharsets.UTF_8));
        try {
            initialise(name);
        } finally {
            System.setErr(err);
            String text = held.toString(StandardCharsets.UTF_8);
            if (!onlyStackTraceElementRefusals(text)) {
                err.print(text);
                err.flush();
            }
        }
    }

    /** Whether every trace in {@code text} is a refused {@code setAccessible} on a {@code StackTraceElement} field. */
    static boolean onlyStackTraceElementRefusals(String text) {
        for (String line : text.split("\\R")) {
            boolean frame = line.startsWith("\tat ") || line.startsWith("\t... ") || line.isEmpty();
            boolean refusal = line.startsWith("java.lang.reflect.InaccessibleObjectException: ")
                    && line.contains(" java.lang.StackTraceElement.");
            if (!frame && !refusal) {
                return false;
            }
        }
        return true;
    }
}
