package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.filter.Interceptor;
import java.util.List;
import java.util.Map;

/** The validated settings of one client proxy. */
public final class ProxySettings {

    final Class<?> serviceInterface;
    final ServiceKey key;
    final String appName;
    final List<String> addresses;
    final InvokeType invokeType;
    final long timeoutMillis;
    final Map<String, Long> methodTimeoutMillis;
    List<Interceptor> interceptors = List.of();
    boolean propagateDeadline;

    public ProxySettings(Class<?> serviceInterface, ServiceKey key, String appName, List<String> addresses,
                         InvokeType invokeType, long timeoutMillis, Map<String, Long> methodTimeoutMillis) {
        this.serviceInterface = serviceInterface;
        this.key = key;
        this.appName = appName;
        this.addresses = List.copyOf(addresses);
        this.invokeType = invokeType;
        this.timeoutMillis = timeoutMillis;
        this.methodTimeoutMillis = Map.copyOf(methodTimeoutMillis);
    }

    /** Sets the interceptors (global first, then this proxy's) and whether every call sends its deadline. */
    public ProxySettings extensions(List<Interceptor> interceptors, boolean propagateDeadline) {
        this.interceptors = List.copyOf(interceptors);
        this.propagateDeadline = propagateDeadline;
        return this;
    }

    long timeoutFor(String methodName) {
        Long special = methodTimeoutMillis.get(methodName);
        return special != null ? special : timeoutMillis;
    }
}
