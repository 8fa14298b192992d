package io.jupiter.serialization;

import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
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
     * A serializer of the same type that reads with {@code allowList} and {@code limits}: a new instance sharing
     * nothing mutable with this one, made once by each server and client for its own settings. The bytes it writes
     * are the same as this one's.
     */
    Serializer with(ClassAllowList allowList, ReadLimits limits);

    /**
     * Appends the encoding of {@code value} to {@code out}, growing it as needed.
     *
     * @throws SerializationException if the value cannot be written
     */
    void write(ByteBuf out, Object value);

    /**
     * Appends a response body, the encoding of {@code new ResultWrapper(result)}, to {@code out}: the same bytes as
     * {@link #write} of that wrapper. A serializer may write them without making the wrapper (protostuff does).
     *
     * @throws SerializationException if the result cannot be written
     */
    default void writeResult(ByteBuf out, Object result) {
        write(out, new ResultWrapper(result));
    }

    /**
     * Reads one value of type {@code type} from all readable bytes of {@code in}.
     *
     * @throws SerializationException if the bytes are not a valid encoding, or name a class that is not allowed
     */
    <T> T read(ByteBuf in, Class<T> type);

    /**
     * Reads a request body, calling {@code listener} with its envelope (app name, service, method) once that is
     * read, and reading the arguments against the {@link ArgumentTypes} it returns; if it returns {@code null},
     * the arguments and attachments are left unread (the returned message has none). Reads all readable bytes of
     * {@code in} either way.
     *
     * <p>Where the format puts the envelope before the arguments ({@link #readsEnvelopeFirst()}), the listener runs
     * before any argument is read, and a class named before a value is checked against the expected type before
     * anything of it is created. This default is for formats that put the arguments first: it reads the whole body
     * with {@link #read}, then calls the listener and checks the values read.
     *
     * <p>The returned message names the service and method the listener was given: a body that names either more
     * than once, or after the listener was asked, is refused ({@link EnvelopeException}), since the caller was
     * authorized on what the listener saw. (A provider checks this of every serializer's answer too.)
     *
     * @throws ArgumentTypeException if an argument is not of an expected type
     * @throws EnvelopeException if a service or method field repeats, or comes after the listener was asked
     * @throws SerializationException if the bytes are not a valid request, or name a class that is not allowed
     */
    default MessageWrapper readRequest(ByteBuf in, EnvelopeListener listener) {
        MessageWrapper message = read(in, MessageWrapper.class);
        ArgumentTypes types = listener.envelopeRead(message.getAppName(), message.getMetadata(),
                message.getMethodName());
        if (types != null) {
            types.checkValues(message.getArgs());
        }
        return message;
    }

    /**
     * Whether {@link #readRequest} reads the envelope before the arguments, so that a request refused from its
     * envelope never has its arguments read. Protostuff and Hessian bodies put the envelope first; Java
     * serialization and Kryo order fields by name, which puts {@code args} before {@code metadata}.
     */
    default boolean readsEnvelopeFirst() {
        return false;
    }
}
