package io.jupiter.rpc.internal.consumer;

import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.balance.EndpointSettings;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory fed by a registry subscription: keeps {@code connCount} connections (as the provider published) to
 * every live provider, opens them for providers that join and releases them for providers that leave (closed after a
 * grace period, so calls in flight finish). Every {@value #CHECK_MILLIS} ms it tells the registry of the providers
 * it has no connection to ({@link RegistryService#reportUnreachable}; a DNS registry then resolves again).
 */
final class RegistryDirectory extends Directory implements NotifyListener {

    private static final Logger log = LoggerFactory.getLogger(RegistryDirectory.class);

    private final SharedGroups groups;
    private final EndpointSettings endpointSettings;
    /** How often the connections of the providers are checked for {@link RegistryService#reportUnreachable}. */
    static final long CHECK_MILLIS = 500;

    private final Map<InetSocketAddress, Endpoint> current = new HashMap<>();
    private final RegistryService registry;
    private final Timer timer;
    private Timeout check;
    private boolean closed;

    RegistryDirectory(String description, SharedGroups groups, EndpointSettings endpointSettings,
                      RegistryService registry, Timer timer) {
        super(description);
        this.groups = groups;
        this.endpointSettings = endpointSettings;
        this.registry = registry;
        this.timer = timer;
        scheduleCheck();
    }

    private synchronized void scheduleCheck() {
        if (!closed) {
            check = timer.newTimeout(t -> checkConnections(), CHECK_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /** Reports the providers whose connections were up once and are all down now. */
    private void checkConnections() {
        List<InetSocketAddress> down = new ArrayList<>();
        synchronized (this) {
            for (Map.Entry<InetSocketAddress, Endpoint> entry : current.entrySet()) {
                if (entry.getValue().group().everAvailable() && !entry.getValue().group().isAvailable()) {
                    down.add(entry.getKey());
                }
            }
        }
        for (InetSocketAddress address : down) {
            try {
                registry.reportUnreachable(new ProviderAddress(address.getHostString(), address.getPort()));
            } catch (RuntimeException e) {
                log.debug("{}: reporting {} unreachable failed: {}", this, address, e.toString());
            }
        }
        scheduleCheck();
    }

    @Override
    public synchronized void providersChanged(ServiceMeta service, List<RegisterMeta> providers) {
        if (closed) {
            return;
        }
        Map<InetSocketAddress, Endpoint> next = new HashMap<>();
        List<Endpoint> ordered = new ArrayList<>();
        for (RegisterMeta meta : providers) {
            if (meta.address().host() == null) {
                continue;
            }
            InetSocketAddress address = new InetSocketAddress(meta.address().host(), meta.address().port());
            if (next.containsKey(address)) {
                continue;
            }
            Endpoint endpoint = current.get(address);
            if (endpoint == null || endpoint.weight() != meta.weight()) {
                if (endpoint != null) {
                    groups.release(address);
                }
                endpoint = new Endpoint(address, groups.acquire(address, meta.connCount()), meta.weight(),
                        meta.connCount(), endpointSettings);
                log.info("{}: provider {} joined", this, endpoint);
            }
            next.put(address, endpoint);
            ordered.add(endpoint);
        }
        for (Map.Entry<InetSocketAddress, Endpoint> old : current.entrySet()) {
            Endpoint kept = next.get(old.getKey());
            if (kept == null) {
                log.info("{}: provider {} left", this, old.getValue());
                groups.release(old.getKey());
            }
        }
        current.clear();
        current.putAll(next);
        update(ordered.toArray(new Endpoint[0]));
    }

    @Override
    synchronized void close() {
        closed = true;
        if (check != null) {
            check.cancel();
        }
        for (InetSocketAddress address : current.keySet()) {
            groups.release(address);
        }
        current.clear();
    }
}
