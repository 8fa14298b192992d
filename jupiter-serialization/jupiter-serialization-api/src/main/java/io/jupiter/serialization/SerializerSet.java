package io.jupiter.serialization;

import java.util.Objects;

/**
 * The serializers one server or client reads with: every serializer on the class path, each made for one
 * {@link ClassAllowList} and one set of {@link ReadLimits} ({@link Serializer#with}), kept by wire code so that
 * picking one per frame is an array load.
 */
public final class SerializerSet {

    private final Serializer[] byCode;
    private final ClassAllowList allowList;
    private final ReadLimits limits;

    private SerializerSet(Serializer[] byCode, ClassAllowList allowList, ReadLimits limits) {
        this.byCode = byCode;
        this.allowList = allowList;
        this.limits = limits;
    }

    /**
     * Every serializer on the class path, reading with {@code allowList} and {@code limits}. With the global
     * allow-list and the default limits these are the shared instances of {@link Serializers}.
     */
    public static SerializerSet of(ClassAllowList allowList, ReadLimits limits) {
        Objects.requireNonNull(allowList, "allowList");
        Objects.requireNonNull(limits, "limits");
        Serializer[] byCode = new Serializer[SerializerType.MAX_CODE + 1];
        boolean shared = allowList == ClassAllowList.global() && limits.equals(Serializers.limits());
        for (int code = 0; code < byCode.length; code++) {
            Serializer serializer = Serializers.find(code);
            if (serializer != null) {
                byCode[code] = shared ? serializer : serializer.with(allowList, limits);
            }
        }
        return new SerializerSet(byCode, allowList, limits);
    }

    /** The serializer with this wire code, or {@code null} if none is on the class path. */
    public Serializer find(int code) {
        return code >= 0 && code < byCode.length ? byCode[code] : null;
    }

    /**
     * The serializer of this type.
     *
     * @throws IllegalStateException naming the missing module if it is not on the class path
     */
    public Serializer get(SerializerType type) {
        Serializer serializer = byCode[type.code()];
        if (serializer == null) {
            throw Serializers.missing(type);
        }
        return serializer;
    }

    /** The allow-list these serializers check class names against. */
    public ClassAllowList allowList() {
        return allowList;
    }

    /** The limits these serializers read with. */
    public ReadLimits limits() {
        return limits;
    }
}
