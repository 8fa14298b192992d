package io.jupiter.rpc.internal.stream;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.concurrent.Flow;

/**
 * The shape of a service method, from its signature: a {@link Flow.Publisher} returned is the provider's stream of
 * messages, a {@link Flow.Publisher} parameter (at most one) the consumer's. Both sides read the shape from the same
 * service interface, so nothing about it travels on the wire.
 */
public enum StreamShape {
    /** A plain call. */
    NONE,
    /** {@code Flow.Publisher<R> m(args)}: the provider sends a stream. */
    SERVER,
    /** {@code R m(Flow.Publisher<T>, args)} (or {@code CompletableFuture<R>}): the consumer sends, one answer. */
    CLIENT,
    /** {@code Flow.Publisher<R> m(Flow.Publisher<T>, args)}: both send, each flow-controlled on its own. */
    BIDI;

    /**
     * The shape of {@code method}.
     *
     * @throws IllegalArgumentException if it takes more than one {@link Flow.Publisher}
     */
    public static StreamShape of(Method method) {
        boolean returnsStream = method.getReturnType() == Flow.Publisher.class;
        boolean takesStream = inboundParameter(method) >= 0;
        if (takesStream) {
            return returnsStream ? BIDI : CLIENT;
        }
        return returnsStream ? SERVER : NONE;
    }

    /**
     * The index of the parameter that is the consumer's stream, or -1 if there is none.
     *
     * @throws IllegalArgumentException if more than one parameter is a {@link Flow.Publisher}
     */
    public static int inboundParameter(Method method) {
        Class<?>[] types = method.getParameterTypes();
        int found = -1;
        for (int i = 0; i < types.length; i++) {
            if (types[i] == Flow.Publisher.class) {
                if (found >= 0) {
                    throw new IllegalArgumentException(method + ": a stream method takes at most one"
                            + " Flow.Publisher parameter (the consumer's stream)");
                }
                found = i;
            }
        }
        return found;
    }

    /** The {@code T} of a {@code Flow.Publisher<T>}; {@code Object} when it is not a class. */
    public static Class<?> messageType(Type publisher) {
        if (publisher instanceof ParameterizedType parameterized) {
            Type argument = parameterized.getActualTypeArguments()[0];
            if (argument instanceof Class<?> type) {
                return type;
            }
            if (argument instanceof ParameterizedType nested && nested.getRawType() instanceof Class<?> raw) {
                return raw;
            }
        }
        return Object.class;
    }

    /** The type of the consumer's messages of {@code method}, which takes a publisher at {@code index}. */
    public static Class<?> inboundType(Method method, int index) {
        return messageType(method.getGenericParameterTypes()[index]);
    }
}
