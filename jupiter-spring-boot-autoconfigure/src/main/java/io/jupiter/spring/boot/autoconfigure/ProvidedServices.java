package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.ServiceProvider;
import io.jupiter.rpc.ServiceProviderImpl;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Registers on a server every bean whose class carries {@link ServiceProviderImpl}, under the one interface its
 * class implements (or the one annotated {@link ServiceProvider}), as {@code JupiterServer.register} does; the class
 * is looked up behind Spring's proxies, so a bean with advice (e.g. transactions) is served with it.
 */
final class ProvidedServices {

    private ProvidedServices() {
    }

    /** The beans found, by name. */
    static Map<String, Object> find(ListableBeanFactory beans) {
        return beans.getBeansWithAnnotation(ServiceProviderImpl.class);
    }

    /** Registers {@code beans} on {@code server}; returns their keys. */
    static List<ServiceKey> register(JupiterServer server, Map<String, Object> beans) {
        List<ServiceKey> keys = new ArrayList<>();
        for (Map.Entry<String, Object> bean : beans.entrySet()) {
            Class<?> type = AopProxyUtils.ultimateTargetClass(bean.getValue());
            Class<?> serviceInterface = serviceInterfaceOf(type, bean.getKey());
            ServiceProviderImpl annotation = type.getAnnotation(ServiceProviderImpl.class);
            String version = annotation == null ? ServiceKey.DEFAULT_VERSION : annotation.version();
            keys.add(server.register(bean.getValue(), serviceInterface, ServiceKey.of(serviceInterface, version)));
        }
        return keys;
    }

    private static Class<?> serviceInterfaceOf(Class<?> type, String beanName) {
        List<Class<?>> found = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Class<?> candidate : c.getInterfaces()) {
                if (candidate.isAnnotationPresent(ServiceProvider.class)) {
                    return candidate;
                }
                found.add(candidate);
            }
        }
        if (found.size() != 1) {
            throw new IllegalStateException("bean '" + beanName + "' (" + type.getName() + ") implements "
                    + found.size() + " interfaces and none is annotated @ServiceProvider: annotate the service "
                    + "interface with @ServiceProvider");
        }
        return found.get(0);
    }
}
