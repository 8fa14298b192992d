package io.jupiter.rpc.internal.provider;

import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerSet;
import io.jupiter.serialization.SerializerType;
import java.util.Set;

/** The serializers a server accepts, by wire code, each reading with the server's own limits: built once. */
final class AcceptedSerializers {

    private final Serializer[] accepted = new Serializer[SerializerType.MAX_CODE + 1];

    AcceptedSerializers(Set<SerializerType> serializers, SerializerSet server) {
        for (SerializerType type : serializers) {
            accepted[type.code()] = server.get(type);
        }
    }

    /** The serializer for a wire code if this server accepts it, else {@code null}. */
    Serializer get(byte code) {
        return code >= 0 && code < accepted.length ? accepted[code] : null;
    }
}
