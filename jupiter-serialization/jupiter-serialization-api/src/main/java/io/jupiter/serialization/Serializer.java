package io.jupiter.serialization;

import io.netty.buffer.ByteBuf;

/**
 * Turns objects into bytes and back, writing straight into and reading straight from Netty buffers.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader} (see {@link Serializers}) and must be
 * thread-safe. They never release the buffers they are given.
 */
public interface Serializer {

    /** Which serializer this is; its code is what the frame header carries. */
    SerializerType type();

    /**
     * Appends the encoding of {@code value} to {@code out}, growing it as needed.
     *
     * @throws SerializationException if the value cannot be written
     */
    void write(ByteBuf out, Object value);

    /**
     * Reads one value of type {@code type} from all readable bytes of {@code in}.
     *
     * @throws SerializationException if the bytes are not a valid encoding, or name a class that is not allowed
     */
    <T> T read(ByteBuf in, Class<T> type);
}
