package io.jupiter.rpc.internal.provider;

import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import java.util.Set;

/** The serializers a server accepts, by wire code: built once per server. */
final class AcceptedSerializers {

    private final Serializer[] accepted = new Serializer[SerializerType.MAX_CODE + 1];

    AcceptedSerializers(Set<SerializerType> serializers) {
        for (SerializerType type : serializers) {
            accepted[type.code()] = Serializers.get(type);
        }
    }

    /** The serializer for a wire code if this server accepts it, else {@code null}. */
    Serializer get(byte code) {
        return code >= 0 && code < accepted.length ? accepted[code] : null;
    }
}
