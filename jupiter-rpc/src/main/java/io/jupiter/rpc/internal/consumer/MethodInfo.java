package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.cluster.HedgingPolicy;
import io.jupiter.rpc.internal.AdaptiveDispatch;
import io.jupiter.serialization.Serializer;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

/** What a client proxy needs to know about one interface method, computed once when the proxy is built. */
final class MethodInfo {

    final Method method;
    final String name;
    final long timeoutMillis;
    final boolean returnsFuture;
    final Class<?>[] exceptionTypes;
    final Object defaultValue;
    /** The cluster strategy of this method; set once when the proxy is built. */
    ClusterStrategy cluster = ClusterStrategy.failFast();
    /** Whether the user marked the method safe to run twice (fail-over may then retry after a timeout). */
    boolean idempotent;
    /** Hedging of this (idempotent) method; {@code null}: none. Set once when the proxy is built. */
    HedgingPolicy hedging;
    /** The hedging delay of this method (fixed, or following its latency); {@code null} when not hedged. */
    HedgeDelay hedgeDelay;
    /** The stages every call of this method goes through; set once when the proxy is built. */
    CallStage pipeline;
    /**
     * Whether the pipeline is a {@link StreamCallStage}: a call then returns its stream (or a client stream's
     * answer) whatever the proxy's invoke type.
     */
    boolean stream;
    /** The wire code of the serializer this proxy's requests use; responses must come back in it. */
    byte serializerCode;
    /** That serializer, made for the client's allow-list and read limits: it reads the responses. */
    Serializer serializer;
    /** Where completions of this method's async calls run; set once when the proxy is built. */
    AdaptiveDispatch completions = AdaptiveDispatch.completions("", false);
    /** The last request body size, to size the next frame buffer right. Racy updates are harmless. */
    int lastBodySize = 128;

    MethodInfo(Method method, long timeoutMillis) {
        this(method, method.getName(), timeoutMillis, method.getExceptionTypes());
    }

    /** A method called by name through a generic invoker's {@code carrier} method; no exception is declared. */
    MethodInfo(Method carrier, String name, long timeoutMillis) {
        this(carrier, name, timeoutMillis, new Class<?>[0]);
    }

    private MethodInfo(Method method, String name, long timeoutMillis, Class<?>[] exceptionTypes) {
        this.method = method;
        this.name = name;
        this.timeoutMillis = timeoutMillis;
        Class<?> returnType = method.getReturnType();
        this.returnsFuture = returnType == CompletableFuture.class || returnType == CompletionStage.class
                || returnType == Future.class;
        if (!returnsFuture && CompletableFuture.class.isAssignableFrom(returnType)) {
            throw new IllegalArgumentException(method + ": return type " + returnType.getName()
                    + " is not supported (expected: CompletableFuture, CompletionStage or Future)");
        }
        this.exceptionTypes = exceptionTypes;
        this.defaultValue = defaultValue(returnType);
    }

    private static Object defaultValue(Class<?> type) {
        if (!type.isPrimitive() || type == void.class) {
            return null;
        }
        if (type == boolean.class) {
            return Boolean.FALSE;
        }
        if (type == char.class) {
            return '\0';
        }
        if (type == byte.class) {
            return (byte) 0;
        }
        if (type == short.class) {
            return (short) 0;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == float.class) {
            return 0f;
        }
        return 0d;
    }

    @Override
    public String toString() {
        return method.getDeclaringClass().getSimpleName() + '.' + name;
    }
}
