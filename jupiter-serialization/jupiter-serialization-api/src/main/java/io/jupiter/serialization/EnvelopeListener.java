package io.jupiter.serialization;

import io.jupiter.serialization.wire.ServiceMetadata;

/**
 * Decides, from a request's envelope (who calls, which service, which method), whether its arguments are read at
 * all and what they must be. {@link Serializer#readRequest} calls it once per body.
 */
@FunctionalInterface
public interface EnvelopeListener {

    /**
     * The envelope of a request was read. With a serializer that {@linkplain Serializer#readsEnvelopeFirst() reads
     * the envelope first}, no argument has been read yet.
     *
     * @param appName    the caller's application name, or {@code null}
     * @param service    the service addressed, or {@code null} if the body names none
     * @param methodName the method, or {@code null}
     * @return the types the arguments must have ({@link ArgumentTypes#ANY}: only the allow-list), or {@code null}
     *         to read no further: the arguments and attachments are then left unread
     */
    ArgumentTypes envelopeRead(String appName, ServiceMetadata service, String methodName);
}
