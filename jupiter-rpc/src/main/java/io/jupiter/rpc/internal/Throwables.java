package io.jupiter.rpc.internal;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Small helpers for throwables. */
public final class Throwables {

    private Throwables() {
    }

    /** Strips the wrappers that carry no meaning of their own (reflection, futures). */
    public static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof InvocationTargetException || current instanceof CompletionException
                || current instanceof ExecutionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /** Whether {@code t} may be thrown from {@code method} as it is: unchecked, or declared. */
    public static boolean isDeclaredBy(Throwable t, Class<?>[] declaredExceptions) {
        for (Class<?> declared : declaredExceptions) {
            if (declared.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
