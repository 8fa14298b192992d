package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.NonBlocking;
import io.jupiter.rpc.internal.stream.StreamShape;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * One provided method with a method handle bound to the implementation, shaped {@code (Object[]) -> Object}, so a
 * call is an {@code invokeExact} with no reflection. Like 1.3.1, arguments are cast, never converted: a
 * {@code Long} for an {@code int} parameter fails with {@link ClassCastException}.
 */
final class MethodEntry {

    final Method method;
    final Class<?>[] parameterTypes;
    final Class<?>[] exceptionTypes;
    final boolean returnsStage;
    /**
     * {@code true}: declared {@link NonBlocking}; {@code false}: declared {@code @NonBlocking(false)}; {@code null}:
     * neither.
     */
    final Boolean declaredNonBlocking;
    /** Whether it is a stream method: it returns or takes a {@link Flow.Publisher}. */
    final boolean streams;
    /** The parameter that is the consumer's stream (client and bidirectional streams); -1: none. */
    final int inboundParameter;
    /** The type of the consumer's messages ({@link #inboundParameter} only); {@code null}: none. */
    final Class<?> inboundType;
    /** A stream method's parameters without {@link #inboundParameter}: what its open carries. */
    final Class<?>[] openParameterTypes;
    /** Whether a stream method answers with one value (client streaming), not a {@link Flow.Publisher}. */
    final boolean answersOnce;
    private final MethodHandle handle;
    /**
     * The body size of this method's last response, to size the next response's buffer right (a buffer that has to
     * grow is copied). Racy updates are harmless.
     */
    int lastResponseBodySize = 64;

    MethodEntry(Method method, Object implementation) {
        this.method = method;
        this.parameterTypes = method.getParameterTypes();
        this.exceptionTypes = method.getExceptionTypes();
        this.returnsStage = CompletionStage.class.isAssignableFrom(method.getReturnType());
        NonBlocking declared = declaration(method, implementation.getClass());
        this.declaredNonBlocking = declared == null ? null : declared.value();
        this.streams = StreamShape.of(method) != StreamShape.NONE; // refuses two Flow.Publisher parameters
        this.inboundParameter = streams ? StreamShape.inboundParameter(method) : -1;
        this.inboundType = inboundParameter < 0 ? null : StreamShape.inboundType(method, inboundParameter);
        this.openParameterTypes = inboundParameter < 0 ? parameterTypes : without(parameterTypes, inboundParameter);
        this.answersOnce = method.getReturnType() != Flow.Publisher.class;
        try {
            method.setAccessible(true);
            this.handle = MethodHandles.lookup().unreflect(method)
                    .bindTo(implementation)
                    .asSpreader(Object[].class, parameterTypes.length)
                    .asType(MethodType.methodType(Object.class, Object[].class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("cannot provide " + method + ": " + e.getMessage(), e);
        }
    }

    private static Class<?>[] without(Class<?>[] types, int at) {
        Class<?>[] rest = new Class<?>[types.length - 1];
        System.arraycopy(types, 0, rest, 0, at);
        System.arraycopy(types, at + 1, rest, at, types.length - at - 1);
        return rest;
    }

    /** The {@link NonBlocking} that applies: the implementation's method, the interface's, the class, the interface. */
    private static NonBlocking declaration(Method method, Class<?> implementationClass) {
        try {
            NonBlocking onImplementation = implementationClass.getMethod(method.getName(), method.getParameterTypes())
                    .getAnnotation(NonBlocking.class);
            if (onImplementation != null) {
                return onImplementation;
            }
        } catch (NoSuchMethodException e) {
            // Not public on the implementation class (a proxy, say): the class and the interface decide.
        }
        NonBlocking found = method.getAnnotation(NonBlocking.class);
        if (found == null) {
            found = implementationClass.getAnnotation(NonBlocking.class);
        }
        return found != null ? found : method.getDeclaringClass().getAnnotation(NonBlocking.class);
    }

    /** Calls the method; throws whatever it throws. */
    Object invoke(Object[] args) throws Throwable {
        if (args.length != parameterTypes.length) {
            throw new IllegalArgumentException(method.getName() + " takes " + parameterTypes.length
                    + " argument(s), got " + args.length);
        }
        return (Object) handle.invokeExact(args);
    }
}
