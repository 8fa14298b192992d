package io.jupiter.serialization.kryo;

import com.esotericsoftware.kryo.util.Util;

/**
 * Starts Kryo with its field serializers on reflection (or ReflectASM) instead of {@code sun.misc.Unsafe}'s memory
 * methods (on JDK 24 and later the JVM prints four {@code WARNING:} lines at the first such call). Both give the same
 * bytes.
 *
 * <p>Kryo decides once per JVM, when its {@code Util} class initialises, from the system property
 * {@code kryo.unsafe} (and only then loads its {@code UnsafeUtil}, whose initialisation already calls those methods).
 * {@link #withoutUnsafe()} sets it to {@code false} unless it is already set, then initialises {@code Util} at once, so
 * the decision is taken here and not by whichever class touches Kryo next. Other users of Kryo in the JVM get the
 * same choice; set {@code -Dkryo.unsafe=true} to keep {@code Unsafe} (and the warning). If Kryo was initialised before
 * Jupiter's serializer, its choice is already made and this changes nothing.
 */
final class KryoStart {

    /** Kryo's switch, read when {@code Util} initialises. */
    static final String UNSAFE_PROPERTY = "kryo.unsafe";

    private KryoStart() {
    }

    /** Sets the switch unless set, and initialises Kryo's {@code Util}; returns whether Kryo uses Unsafe. */
    static boolean withoutUnsafe() {
        if (System.getProperty(UNSAFE_PROPERTY) == null) {
            System.setProperty(UNSAFE_PROPERTY, "false");
        }
        return Util.unsafe; // initialises Util now
    }
}
