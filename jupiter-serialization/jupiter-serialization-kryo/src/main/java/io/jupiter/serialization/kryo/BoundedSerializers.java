package io.jupiter.serialization.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ObjectArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.StringArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.ArraysAsListSerializer;
import com.esotericsoftware.kryo.serializers.DefaultSerializers.PriorityQueueSerializer;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Kryo's collection, map and object-array serializers, each charging the length it read to the body's budget
 * ({@link BoundedInput#charge}) before it creates the collection or array of that size. Same bytes as Kryo's own.
 * {@link #bounded} swaps them in for Kryo's defaults.
 */
final class BoundedSerializers {

    private BoundedSerializers() {
    }

    /** Our bounded twin of Kryo's default {@code serializer} for {@code type}, or {@code serializer} itself. */
    static Serializer<?> bounded(Kryo kryo, Class<?> type, Serializer<?> serializer) {
        Class<?> kind = serializer.getClass();
        if (kind == CollectionSerializer.class) {
            return new Collections();
        }
        if (kind == MapSerializer.class) {
            return new Maps();
        }
        if (kind == ObjectArraySerializer.class) {
            return new ObjectArrays(kryo, type);
        }
        if (kind == StringArraySerializer.class) {
            return new StringArrays();
        }
        if (kind == PriorityQueueSerializer.class) {
            return new PriorityQueues();
        }
        if (kind == ArraysAsListSerializer.class) {
            return new ArraysAsLists();
        }
        return serializer;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class Collections extends CollectionSerializer<Collection> {
        @Override
        protected Collection create(Kryo kryo, Input input, Class<? extends Collection> type, int size) {
            BoundedInput.charge(input, size, "collection");
            return super.create(kryo, input, type, size);
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class Maps extends MapSerializer<Map> {
        @Override
        protected Map create(Kryo kryo, Input input, Class<? extends Map> type, int size) {
            BoundedInput.charge(input, size, "map");
            return super.create(kryo, input, type, size);
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class PriorityQueues extends PriorityQueueSerializer {
        @Override
        protected PriorityQueue create(Kryo kryo, Input input, Class<? extends PriorityQueue> type, int size) {
            BoundedInput.charge(input, size, "priority queue");
            return super.create(kryo, input, type, size);
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class ArraysAsLists extends ArraysAsListSerializer {
        @Override
        protected List create(Kryo kryo, Input input, Class type, int size) {
            BoundedInput.charge(input, size, "list");
            return super.create(kryo, input, type, size);
        }
    }

    /** The length comes first, as {@code length + 1} (0 is null). */
    static final class ObjectArrays extends ObjectArraySerializer {
        ObjectArrays(Kryo kryo, Class<?> type) {
            super(kryo, type);
        }

        @Override
        @SuppressWarnings("rawtypes")
        public Object[] read(Kryo kryo, Input input, Class type) {
            int length = BoundedInput.peekVarInt(input);
            if (length > 1 || length < 0) {
                BoundedInput.charge(input, length - 1, "array");
            }
            return super.read(kryo, input, type);
        }
    }

    /** The length comes first, as {@code length + 1} (0 is null). */
    static final class StringArrays extends StringArraySerializer {
        @Override
        @SuppressWarnings("rawtypes")
        public String[] read(Kryo kryo, Input input, Class type) {
            int length = BoundedInput.peekVarInt(input);
            if (length > 1 || length < 0) {
                BoundedInput.charge(input, length - 1, "string array");
            }
            return super.read(kryo, input, type);
        }
    }
}
