package io.jupiter.serialization.java;

import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.internal.CheckedObjectInputStream;
import io.jupiter.serialization.wire.LegacyClassNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectStreamClass;

/**
 * Resolves Jupiter 1.3.1's body class names ({@code org.jupiter.rpc.model.metadata.*}) to our classes. They share
 * simple names, serialVersionUIDs and field names, so the JDK accepts the binding; every other class name is checked
 * against the {@link ClassAllowList} before it is loaded. Every class is also subject to the stream's
 * {@link ObjectInputFilter}.
 */
final class LegacyObjectInputStream extends CheckedObjectInputStream {

    LegacyObjectInputStream(InputStream in, ObjectInputFilter filter, ClassAllowList allowList, ClassLoader loader)
            throws IOException {
        super(in, allowList, "java", loader);
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
        return super.resolveClass(desc);
    }
}
