package io.jupiter.serialization.internal;

import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import java.util.Objects;

/**
 * The state of one request read envelope first, shared by the serializers that read so (protostuff, hessian): it
 * asks the {@link EnvelopeListener} once the envelope is read, keeps the argument types it answered, and checks the
 * arguments read against them ({@link #checked}). A subclass adds what its format needs to check each argument as it
 * is read.
 */
public abstract class EnvelopeRead {

    /** Not final: a reader reused for one read after another is {@link #restart}ed. */
    private EnvelopeListener listener;
    private ArgumentTypes types;

    protected EnvelopeRead(EnvelopeListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * Starts the next read, told to {@code listener}, with nothing of the one before; {@code null} once a read is
     * over, so that the reader holds on to nothing of it.
     */
    protected final void restart(EnvelopeListener listener) {
        this.listener = listener;
        this.types = null;
    }

    /**
     * Asks the listener about the envelope just read.
     *
     * @return the types the arguments must have; {@code null}: the listener stopped the read
     */
    protected final ArgumentTypes envelopeRead(String appName, ServiceMetadata service, String methodName) {
        types = listener.envelopeRead(appName, service, methodName);
        return types;
    }

    /** What the listener expects of the arguments; {@code null} before it was asked or when it stopped the read. */
    public final ArgumentTypes types() {
        return types;
    }

    /** {@code message}, once its arguments are checked against the types the listener answered (if it did). */
    public final MessageWrapper checked(MessageWrapper message) {
        if (types != null) {
            types.checkValues(message.getArgs());
        }
        return message;
    }
}
