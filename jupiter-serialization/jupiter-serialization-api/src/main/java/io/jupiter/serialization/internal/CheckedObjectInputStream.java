package io.jupiter.serialization.internal;

import io.jupiter.serialization.ClassAllowList;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * A JDK object stream that checks every class name it reads (classes, superclasses, array types, the interfaces of
 * proxies) against a {@link ClassAllowList} before loading it, and loads classes without initializing them. Used by
 * the Java serializer and wherever another serializer embeds JDK serialization (Kryo's throwables).
 */
public class CheckedObjectInputStream extends ObjectInputStream {

    private final ClassAllowList allowList;
    private final String serializer;
    private final ClassLoader loader;

    public CheckedObjectInputStream(InputStream in, ClassAllowList allowList, String serializer, ClassLoader loader)
            throws IOException {
        super(in);
        this.allowList = allowList;
        this.serializer = serializer;
        this.loader = loader;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
        String name = desc.getName();
        allowList.check(serializer, name);
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            return super.resolveClass(desc);
        }
    }

    @Override
    protected Class<?> resolveProxyClass(String[] interfaces) throws IOException, ClassNotFoundException {
        // A proxy runs its handler on every call; it is refused unless the allow-list is relaxed.
        allowList.check(serializer, "java.lang.reflect.Proxy");
        for (String name : interfaces) {
            allowList.check(serializer, name);
        }
        return super.resolveProxyClass(interfaces);
    }
}
