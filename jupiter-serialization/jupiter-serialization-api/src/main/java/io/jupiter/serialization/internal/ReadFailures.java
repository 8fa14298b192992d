package io.jupiter.serialization.internal;

import io.jupiter.serialization.ArgumentTypeException;
import io.jupiter.serialization.ClassNotTrustedException;
import io.jupiter.serialization.EnvelopeException;
import io.jupiter.serialization.ReadLimitException;
import io.jupiter.serialization.SerializationException;

/**
 * What a serializer throws when reading a body failed: the one ladder every serializer that reads with a library
 * (which wraps our own exceptions in its own) goes down, most precise first.
 *
 * <ol>
 *   <li>an argument of the wrong type ({@link ArgumentTypeException}) or a bad envelope ({@link EnvelopeException}),
 *       as thrown;</li>
 *   <li>a class the allow-list refused ({@link ClassNotTrustedException}), naming the type being read;</li>
 *   <li>a read limit crossed ({@link ReadLimitException}), or the stack or heap exhausted by the body, naming the
 *       serializer and the type;</li>
 *   <li>anything else: a {@link SerializationException} naming the serializer, the type and the body size.</li>
 * </ol>
 */
public final class ReadFailures {

    private ReadFailures() {
    }

    /**
     * The exception to throw for {@code failure}, raised while {@code serializer} read a {@code type} from a body of
     * {@code readable} bytes.
     */
    public static SerializationException of(String serializer, Class<?> type, int readable, Throwable failure) {
        ArgumentTypeException wrongType = ArgumentTypeException.findIn(failure);
        if (wrongType != null) {
            return wrongType;
        }
        EnvelopeException badEnvelope = EnvelopeException.findIn(failure);
        if (badEnvelope != null) {
            return badEnvelope;
        }
        ClassNotTrustedException refused = ClassNotTrustedException.findIn(failure);
        if (refused != null) {
            return refused.reading(type);
        }
        ReadLimitException breach = ReadLimitException.findIn(failure);
        if (breach != null) {
            return breach.reading(serializer, type);
        }
        if (failure instanceof VirtualMachineError exhausted) {
            return ReadLimitException.exhausted(serializer, type, exhausted);
        }
        return new SerializationException(serializer + ": cannot read " + type.getName() + " from " + readable
                + " bytes: " + failure, failure);
    }
}
