package io.jupiter.serialization.java;

import io.jupiter.serialization.wire.LegacyClassNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * Resolves Jupiter 1.3.1's body class names ({@code org.jupiter.rpc.model.metadata.*}) to our classes. They share
 * simple names, serialVersionUIDs and field names, so the JDK accepts the binding; every other class resolves as
 * usual. Every class is subject to the stream's {@link ObjectInputFilter}.
 */
final class LegacyObjectInputStream extends ObjectInputStream {

    private final ClassLoader loader;

    LegacyObjectInputStream(InputStream in, ObjectInputFilter filter, ClassLoader loader) throws IOException {
        super(in);
        this.loader = loader;
        if (filter != null) {
            setObjectInputFilter(filter);
        }
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
        Class<?> local = LegacyClassNames.TO_LOCAL.get(desc.getName());
        if (local != null) {
            return local;
        }
        try {
            return Class.forName(desc.getName(), false, loader);
        } catch (ClassNotFoundException e) {
            return super.resolveClass(desc);
        }
    }
}
