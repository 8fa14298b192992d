package io.jupiter.registry.internal;

import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of a registry client, by service, in subscription order. Confined to the client's worker thread;
 * a listener that throws is logged and does not keep the others from hearing the change.
 */
public final class Subscriptions {

    private static final Logger log = LoggerFactory.getLogger(Subscriptions.class);

    private final Map<ServiceMeta, List<NotifyListener>> listeners = new LinkedHashMap<>();

    /** Adds {@code listener} to the listeners of {@code service}. */
    public void add(ServiceMeta service, NotifyListener listener) {
        listeners.computeIfAbsent(service, s -> new CopyOnWriteArrayList<>()).add(listener);
    }

    /** The services subscribed to so far, in subscription order. */
    public Set<ServiceMeta> services() {
        return listeners.keySet();
    }

    /** Tells every listener of {@code service} its new providers. */
    public void providersChanged(ServiceMeta service, List<RegisterMeta> providers) {
        for (NotifyListener listener : listeners.getOrDefault(service, List.of())) {
            try {
                listener.providersChanged(service, providers);
            } catch (RuntimeException e) {
                log.warn("registry listener failed for {}", service, e);
            }
        }
    }
}
