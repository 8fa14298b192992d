package io.jupiter.example.registry;

import io.jupiter.common.Requires;
import io.jupiter.monitor.RegistryView;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.ServiceKey;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The console's {@code registry} commands over an embedded {@link RegistryServer}: what it knows at the moment of
 * the command. Lives here, not in either module, because {@code jupiter-monitor} depends on {@code jupiter-rpc},
 * whose tests use {@code jupiter-registry-default}: a dependency between those two would close a cycle.
 */
public final class RegistryServerView implements RegistryView {

    private final RegistryServer server;

    public RegistryServerView(RegistryServer server) {
        this.server = Requires.notNull(server, "server");
    }

    /** The distinct {@code host:port} of every published provider. */
    @Override
    public List<String> publisherAddresses() {
        Set<String> addresses = new LinkedHashSet<>();
        for (RegisterMeta meta : server.allProviders()) {
            addresses.add(address(meta));
        }
        return new ArrayList<>(addresses);
    }

    /** The {@code host:port} each subscribed consumer connects from. */
    @Override
    public List<String> subscriberAddresses() {
        Set<String> addresses = new LinkedHashSet<>();
        for (InetSocketAddress remote : server.subscribers()) {
            addresses.add(remote.getAddress().getHostAddress() + ':' + remote.getPort());
        }
        return new ArrayList<>(addresses);
    }

    @Override
    public List<String> providersOf(ServiceKey service) {
        List<String> addresses = new ArrayList<>();
        for (RegisterMeta meta : server.providers(new ServiceMeta(service.group(), service.name(),
                service.version()))) {
            addresses.add(address(meta));
        }
        return addresses;
    }

    @Override
    public List<ServiceKey> servicesAt(String host, int port) {
        List<ServiceKey> services = new ArrayList<>();
        for (RegisterMeta meta : server.allProviders()) {
            if (meta.address().port() == port && host.equals(meta.address().host())) {
                ServiceMeta s = meta.service();
                services.add(new ServiceKey(s.group(), s.name(), s.version()));
            }
        }
        return services;
    }

    private static String address(RegisterMeta meta) {
        return meta.address().host() + ':' + meta.address().port();
    }
}
