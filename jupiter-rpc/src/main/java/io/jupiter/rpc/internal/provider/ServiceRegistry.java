package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Side;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.wire.ServiceMetadata;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The services a server provides, by key, and what each adds to the pipeline: its interceptors, the serializers it
 * is pinned to, its own executor. The lookup stage finds a request's service here.
 */
final class ServiceRegistry {

    private final ConcurrentHashMap<String, ServiceEntry> services = new ConcurrentHashMap<>();
    /**
     * The same services by name, for the request path: found by the request's own strings, with no directory string
     * built per request. Arrays are replaced, never changed.
     */
    private final ConcurrentHashMap<String, ServiceEntry[]> servicesByName = new ConcurrentHashMap<>();
    /** The interceptors of every service, before a service's own. */
    private volatile List<Interceptor> interceptors = List.of();

    ServiceRegistry() {
    }

    /** Sets the interceptors of every service; call before registering services. */
    void interceptors(List<Interceptor> all) {
        this.interceptors = List.copyOf(all);
    }

    /** Registers a service; fails if one with the same key exists. */
    void register(ServiceEntry entry) {
        entry.chain(InterceptorChain.of(Side.PROVIDER, interceptors, entry.interceptors()));
        ServiceEntry previous = services.putIfAbsent(entry.key().directory(), entry);
        if (previous != null) {
            throw new IllegalStateException("service " + entry.key() + " is already registered");
        }
        servicesByName.merge(entry.key().name(), new ServiceEntry[] {entry}, (known, added) -> {
            ServiceEntry[] all = Arrays.copyOf(known, known.length + 1);
            all[known.length] = added[0];
            return all;
        });
    }

    /** The registered service {@code directory}; fails if there is none. */
    ServiceEntry get(String directory) {
        ServiceEntry entry = services.get(directory);
        if (entry == null) {
            throw new IllegalStateException("no service " + directory + " is registered");
        }
        return entry;
    }

    /** Lets requests for the registered service {@code directory} use only {@code types}. */
    void pinSerializers(String directory, Set<SerializerType> types) {
        get(directory).pinSerializers(types);
    }

    /** Adds interceptors to a registered service. */
    void intercept(String directory, List<Interceptor> added) {
        ServiceEntry entry = get(directory);
        synchronized (entry) {
            List<Interceptor> all = new ArrayList<>(entry.interceptors());
            all.addAll(added);
            entry.interceptors(all);
            entry.chain(InterceptorChain.of(Side.PROVIDER, interceptors, all));
        }
    }

    /** Every registered service. */
    Collection<ServiceEntry> all() {
        return services.values();
    }

    /** The service a request names, or {@code null}. */
    ServiceEntry find(ServiceMetadata metadata) {
        String name = metadata.getServiceProviderName();
        ServiceEntry[] named = name == null ? null : servicesByName.get(name);
        if (named != null) {
            for (ServiceEntry entry : named) {
                ServiceKey key = entry.key();
                if (key.group().equals(metadata.getGroup()) && key.version().equals(metadata.getVersion())) {
                    return entry;
                }
            }
        }
        return null;
    }
}
