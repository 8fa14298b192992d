package io.jupiter.registry.embedded.internal;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.transport.Connection;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the registry server knows: each service's providers, subscribers and version, and what each connection
 * published and subscribed to. Confined to the server's worker thread; it decides nothing.
 */
final class RegistryState {

    private final Map<ServiceMeta, ServiceState> services = new HashMap<>();
    private final Map<Connection, Peer> peers = new LinkedHashMap<>();

    /** The connection's peer, created if it is new. */
    Peer peer(Connection connection) {
        return peers.computeIfAbsent(connection, c -> new Peer());
    }

    /** The connection's peer, or {@code null}. */
    Peer existingPeer(Connection connection) {
        return peers.get(connection);
    }

    /** Removes and returns the connection's peer, or {@code null}. */
    Peer removePeer(Connection connection) {
        return peers.remove(connection);
    }

    /** The connections subscribed to at least one service, in the order they connected. */
    List<Connection> subscriberConnections() {
        List<Connection> subscribers = new ArrayList<>();
        for (Map.Entry<Connection, Peer> entry : peers.entrySet()) {
            if (!entry.getValue().subscribed.isEmpty()) {
                subscribers.add(entry.getKey());
            }
        }
        return subscribers;
    }

    /** The remote addresses of {@link #subscriberConnections()}. */
    List<InetSocketAddress> subscriberAddresses() {
        List<InetSocketAddress> all = new ArrayList<>();
        for (Connection connection : subscriberConnections()) {
            all.add((InetSocketAddress) connection.remoteAddress()); // the registry serves TCP only
        }
        return all;
    }

    /** The service's state, or {@code null}. */
    ServiceState service(ServiceMeta service) {
        return services.get(service);
    }

    /** The service's state, created if it is new. */
    ServiceState serviceOrNew(ServiceMeta service) {
        return services.computeIfAbsent(service, s -> new ServiceState());
    }

    /** Drops a service nobody publishes or subscribes to. */
    void forgetIfUnused(ServiceMeta service, ServiceState state) {
        if (state.providers.isEmpty() && state.subscribers.isEmpty()) {
            services.remove(service);
        }
    }

    /** Whether any service still has a provider at {@code address}. */
    boolean stillPublished(ProviderAddress address) {
        for (ServiceState state : services.values()) {
            if (state.providers.containsKey(address)) {
                return true;
            }
        }
        return false;
    }

    /** The providers of a service. */
    List<RegisterMeta> providers(ServiceMeta service) {
        ServiceState state = services.get(service);
        return state == null ? List.of() : state.metas();
    }

    /** Every provider of every service. */
    List<RegisterMeta> allProviders() {
        List<RegisterMeta> all = new ArrayList<>();
        for (ServiceState state : services.values()) {
            all.addAll(state.metas());
        }
        return all;
    }

    /** One service: its version (bumped on every change), its providers by address, its subscribers. */
    static final class ServiceState {
        long version;
        final Map<ProviderAddress, Published> providers = new LinkedHashMap<>();
        final Set<Connection> subscribers = new LinkedHashSet<>();

        List<RegisterMeta> metas() {
            List<RegisterMeta> metas = new ArrayList<>(providers.size());
            for (Published published : providers.values()) {
                metas.add(published.meta());
            }
            return metas;
        }
    }

    /** A provider entry and the connection that published it. */
    record Published(RegisterMeta meta, Connection owner) {
    }

    /** What identifies a publication: the service and the address (weight and connection count may change). */
    record Publication(ServiceMeta service, ProviderAddress address) {
        static Publication of(RegisterMeta meta) {
            return new Publication(meta.service(), meta.address());
        }
    }

    /** What one connection published and subscribed to. */
    static final class Peer {
        final Map<Publication, RegisterMeta> published = new LinkedHashMap<>();
        final Set<ServiceMeta> subscribed = new LinkedHashSet<>();
    }
}
