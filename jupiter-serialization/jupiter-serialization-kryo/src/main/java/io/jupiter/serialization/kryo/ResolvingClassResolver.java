package io.jupiter.serialization.kryo;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.ObjectMap;

/**
 * Kryo's default class resolver, with every class name read from the wire turned into a class by
 * {@link #resolveClass(String)}: the one place where an allow-list will be checked.
 */
class ResolvingClassResolver extends DefaultClassResolver {

    @Override
    protected Class<?> getTypeByName(String className) {
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
     * The class a name read from the wire stands for.
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
