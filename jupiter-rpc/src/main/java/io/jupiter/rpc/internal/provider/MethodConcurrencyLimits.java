package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.AdaptiveConcurrency;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/**
 * The adaptive concurrency limits of a service's methods that declare one ({@link AdaptiveConcurrency}), by method
 * name (overloads share theirs), made once when the service is registered.
 */
final class MethodConcurrencyLimits {

    private static final MethodConcurrencyLimits NONE = new MethodConcurrencyLimits(Map.of());

    private final Map<String, AdaptiveConcurrencyLimit> byName;

    private MethodConcurrencyLimits(Map<String, AdaptiveConcurrencyLimit> byName) {
        this.byName = byName;
    }

    /** The limits the methods of {@code serviceInterface}, implemented by {@code implementationClass}, declare. */
    static MethodConcurrencyLimits of(Iterable<Method> methods, Class<?> serviceInterface,
                                      Class<?> implementationClass) {
        Map<String, AdaptiveConcurrencyLimit> limits = new HashMap<>();
        for (Method method : methods) {
            AdaptiveConcurrency declared = declaration(method, serviceInterface, implementationClass);
            if (declared != null && declared.enabled() && !limits.containsKey(method.getName())) {
                try {
                    limits.put(method.getName(),
                            new AdaptiveConcurrencyLimit(declared.initial(), declared.min(), declared.max()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("@AdaptiveConcurrency of " + method + ": " + e.getMessage(),
                            e);
                }
            }
        }
        return limits.isEmpty() ? NONE : new MethodConcurrencyLimits(Map.copyOf(limits));
    }

    /** The implementation's method, the interface's, the implementation class, the interface. */
    private static AdaptiveConcurrency declaration(Method method, Class<?> serviceInterface,
                                                   Class<?> implementationClass) {
        try {
            AdaptiveConcurrency onImplementation = implementationClass
                    .getMethod(method.getName(), method.getParameterTypes()).getAnnotation(AdaptiveConcurrency.class);
            if (onImplementation != null) {
                return onImplementation;
            }
        } catch (NoSuchMethodException e) {
            // Not public on the implementation class (a proxy, say): the class and the interface decide.
        }
        AdaptiveConcurrency found = method.getAnnotation(AdaptiveConcurrency.class);
        if (found == null) {
            found = implementationClass.getAnnotation(AdaptiveConcurrency.class);
        }
        return found != null ? found : serviceInterface.getAnnotation(AdaptiveConcurrency.class);
    }

    /** The limit of the method(s) named {@code methodName}, or {@code null}: none. */
    AdaptiveConcurrencyLimit of(String methodName) {
        return byName.isEmpty() || methodName == null ? null : byName.get(methodName);
    }
}
