package io.jupiter.rpc.internal;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Set;
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

    /** Throwables of one chain that {@link #clearStackTraces} visits at most (causes and suppressed ones). */
    private static final int MAX_CLEARED = 64;
    private static final StackTraceElement[] NO_FRAMES = new StackTraceElement[0];

    /**
     * Empties the stack trace of {@code t}, of its causes and of its suppressed throwables (at most
     * {@value #MAX_CLEARED} of them, each once), so that none of the provider's frames leaves the process.
     */
    public static void clearStackTraces(Throwable t) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Throwable> todo = new ArrayDeque<>();
        todo.add(t);
        while (!todo.isEmpty() && seen.size() < MAX_CLEARED) {
            Throwable next = todo.poll();
            if (!seen.add(next)) {
                continue;
            }
            next.setStackTrace(NO_FRAMES);
            if (next.getCause() != null) {
                todo.add(next.getCause());
            }
            Collections.addAll(todo, next.getSuppressed());
        }
    }
}
