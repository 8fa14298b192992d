package io.jupiter.serialization.protostuff;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A class loader that remembers the classes its delegate resolved by name. Protostuff resolves the component class
 * of every array it reads through the thread's context class loader, and every request has such an array (its
 * arguments, an {@code Object[]}): {@code ClassLoader.loadClass} takes a lock, allocated per name and call, and asks
 * the parent loaders each time, a few hundred nanoseconds a request. {@link ProtostuffSerializer} makes this the
 * context class loader for the length of a read.
 *
 * <p>Only names protostuff asks for reach it, and protostuff asks only after {@link LegacyNameInput} checked the
 * name against the allow-list, on every read; at most {@value #MAX_REMEMBERED} names are remembered per delegate.
 * The loader of the last delegate seen is kept (threads share one context class loader, as a rule); another
 * delegate gets a loader of its own.
 */
final class RememberingClassLoader extends ClassLoader {

    private static final int MAX_REMEMBERED = 1024;

    private static volatile RememberingClassLoader last;

    private final ClassLoader delegate;
    private final ConcurrentHashMap<String, Class<?>> resolved = new ConcurrentHashMap<>();

    private RememberingClassLoader(ClassLoader delegate) {
        super(delegate);
        this.delegate = delegate;
    }

    /** The loader that remembers for {@code delegate}. */
    static RememberingClassLoader over(ClassLoader delegate) {
        RememberingClassLoader loader = last;
        if (loader == null || loader.delegate != delegate) {
            loader = new RememberingClassLoader(delegate);
            last = loader;
        }
        return loader;
    }

    @Override
    public Class<?> loadClass(String name) throws ClassNotFoundException {
        Class<?> type = resolved.get(name);
        if (type != null) {
            return type;
        }
        type = delegate.loadClass(name);
        if (resolved.size() < MAX_REMEMBERED) {
            resolved.putIfAbsent(name, type);
        }
        return type;
    }
}
