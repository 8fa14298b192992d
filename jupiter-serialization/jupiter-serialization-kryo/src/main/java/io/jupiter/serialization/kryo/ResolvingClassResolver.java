package io.jupiter.serialization.kryo;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.ObjectMap;
import io.jupiter.serialization.ClassAllowList;

/**
 * Kryo's default class resolver, with every class name read from the wire checked against the
 * {@link ClassAllowList} and then turned into a class by {@link #resolveClass(String)}. Registered classes travel as
 * ids and need no check; an unregistered class can only arrive by name, so the allow-list decides which
 * unregistered classes may be read, as {@code setRegistrationRequired(true)} would with a registration list.
 */
class ResolvingClassResolver extends DefaultClassResolver {

    private final ClassAllowList allowList;

    ResolvingClassResolver(ClassAllowList allowList) {
        this.allowList = allowList;
    }

    @Override
    protected Class<?> getTypeByName(String className) {
        // Checked before Kryo's name cache too: the mode may have changed since the name was cached.
        allowList.check("kryo", className);
        Class<?> known = super.getTypeByName(className);
        if (known != null) {
            return known;
        }
        Class<?> type = resolveClass(className);
        if (nameToClass == null) {
            nameToClass = new ObjectMap<>();
        }
        nameToClass.put(className, type);
        return type;
    }

    /**
     * The class a name read from the wire stands for, loaded without initializing it.
     *
     * @throws KryoException if there is no such class
     */
    protected Class<?> resolveClass(String className) {
        try {
            return Class.forName(className, false, kryo.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new KryoException("Unable to find class: " + className, e);
        }
    }
}
