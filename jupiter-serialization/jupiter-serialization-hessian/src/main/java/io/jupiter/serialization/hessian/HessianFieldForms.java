package io.jupiter.serialization.hessian;

import com.caucho.hessian.io.Deserializer;
import com.caucho.hessian.io.FieldDeserializer2Factory;
import com.caucho.hessian.io.FieldDeserializer2FactoryUnsafe;
import com.caucho.hessian.io.Serializer;
import com.caucho.hessian.io.StackTraceElementDeserializer;
import com.caucho.hessian.io.UnsafeDeserializer;
import com.caucho.hessian.io.UnsafeSerializer;
import java.lang.reflect.Method;

/**
 * Hessian's own field-by-field forms, with {@code sun.misc.Unsafe}, as Hessian picks them in its {@code Unsafe} mode:
 * for the classes our forms cannot read (a JDK class with private fields and no public way to them, a class without
 * a no-argument constructor, a {@code @HessianUnshared} class). {@link HessianStart} has put Hessian itself in its
 * reflective mode, whose readers cannot set a JDK class's private fields; these keep such classes working as before.
 * Their first use makes JDK 24 and later print the {@code Unsafe} warning. With {@code com.caucho.hessian.unsafe=false}
 * set by the user they are not used ({@code null}: Hessian's reflective forms).
 */
final class HessianFieldForms {

    private HessianFieldForms() {
    }

    /** Hessian's serializer for {@code cl}, or {@code null} to leave the choice to Hessian. */
    static Serializer serializer(Class<?> cl) {
        // Hessian writes a class with writeReplace() by reflection (its JavaSerializer) in either mode.
        return HessianStart.UNSAFE_FALLBACK && !hasWriteReplace(cl) ? UnsafeSerializer.create(cl) : null;
    }

    /** Hessian's deserializer for {@code cl}, or {@code null} to leave the choice to Hessian. */
    static Deserializer deserializer(Class<?> cl) {
        return HessianStart.UNSAFE_FALLBACK ? new UnsafeDeserializer(cl, UnsafeFields.FACTORY) : null;
    }

    /** Hessian's own reader of {@code StackTraceElement}, which sets its private fields (tests compare). */
    static Deserializer stackTraceElementDeserializer() {
        return new StackTraceElementDeserializer(UnsafeFields.FACTORY);
    }

    /** Whether {@code cl} or a superclass declares {@code writeReplace()}, as Hessian looks for it. */
    static boolean hasWriteReplace(Class<?> cl) {
        for (Class<?> c = cl; c != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals("writeReplace") && m.getParameterCount() == 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Created on first use only. */
    private static final class UnsafeFields {
        static final FieldDeserializer2Factory FACTORY = new FieldDeserializer2FactoryUnsafe();
    }
}
