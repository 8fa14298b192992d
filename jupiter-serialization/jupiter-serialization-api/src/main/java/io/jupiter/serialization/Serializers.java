package io.jupiter.serialization;

import java.util.ServiceLoader;

/**
 * The serializers present on the class path, found once with {@link ServiceLoader} and kept in an array indexed by
 * wire code, so that picking one per frame is an array load. They read with {@link ClassAllowList#global()} and the
 * {@link ReadLimits#defaults()} of when this class loaded; a server or client with settings of its own reads with a
 * {@link SerializerSet} made for them.
 */
public final class Serializers {

    private static final Serializer[] BY_CODE = load();
    /** The limits the shared instances read with (each reads the settings when it is made, as this class loads). */
    private static final ReadLimits LIMITS = ReadLimits.defaults();

    private Serializers() {
    }

    private static Serializer[] load() {
        Serializer[] byCode = new Serializer[SerializerType.MAX_CODE + 1];
        for (Serializer serializer : ServiceLoader.load(Serializer.class, Serializers.class.getClassLoader())) {
            byCode[serializer.type().code()] = serializer;
        }
        return byCode;
    }

    /** The serializer with this wire code, or {@code null} if none is on the class path. */
    public static Serializer find(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /**
     * The serializer of this type.
     *
     * @throws IllegalStateException naming the missing module if it is not on the class path
     */
    public static Serializer get(SerializerType type) {
        Serializer serializer = BY_CODE[type.code()];
        if (serializer == null) {
            throw missing(type);
        }
        return serializer;
    }

    /** The limits the shared instances read with. */
    static ReadLimits limits() {
        return LIMITS;
    }

    static IllegalStateException missing(SerializerType type) {
        return new IllegalStateException("no " + type.id() + " serializer on the class path: add the artifact "
                + "io.jupiter:jupiter-serialization-" + type.id() + " (or io.jupiter:jupiter-all, which has every "
                + "serializer; io.jupiter:jupiter-rpc alone brings protostuff only)");
    }
}
