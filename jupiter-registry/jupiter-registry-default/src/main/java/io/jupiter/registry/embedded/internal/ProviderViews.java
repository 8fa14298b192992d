package io.jupiter.registry.embedded.internal;

import io.jupiter.common.LogText;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.internal.ProviderRecords;
import io.jupiter.registry.internal.ProviderRecords.HostRule;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the registry client knows: the providers each registry server reported, with the version of each service's
 * last push, and their union per service. A push whose version is not newer than the last one seen from that
 * server is dropped, and an empty full list never replaces a non-empty one (empty-push protection). Every pushed
 * provider passes {@link ProviderRecords} (port 1-65535, an IP literal or host name, the pushed service's key)
 * before it counts. Confined to the client's worker thread; it tells no listener.
 */
final class ProviderViews {

    private static final Logger log = LoggerFactory.getLogger(ProviderViews.class);

    private final ProviderRecords records = new ProviderRecords("embedded");
    private final Map<InetSocketAddress, ServerView> views = new HashMap<>();
    private final Map<ServiceMeta, List<RegisterMeta>> merged = new HashMap<>();

    /** The union of what the servers reported for {@code service}, or {@code null} if none did yet. */
    List<RegisterMeta> merged(ServiceMeta service) {
        return merged.get(service);
    }

    /** A (re)connected server counts versions from zero again: its first full lists are accepted whatever they say. */
    void connected(InetSocketAddress server) {
        view(server).versions.clear();
    }

    /**
     * Applies a push from {@code server}.
     *
     * @return whether the server's list for the push's service may have changed (then {@link #remerge} it)
     */
    boolean apply(InetSocketAddress server, RegistryMessage message, PushData push) {
        ServerView view = view(server);
        ServiceMeta service = push.service();
        Long known = view.versions.get(service);
        Map<ProviderAddress, RegisterMeta> providers = view.providers.computeIfAbsent(service,
                s -> new LinkedHashMap<>());
        if (push.providers() instanceof List<?> list) {
            if (known != null && message.version() < known) {
                return false;
            }
            view.versions.put(service, message.version());
            if (list.isEmpty() && !providers.isEmpty()) {
                log.warn("registry sent an empty provider list for {}; keeping the last known {} providers",
                        LogText.of(service), providers.size());
                return false;
            }
            providers.clear();
            for (Object element : list) {
                if (element instanceof RegisterMeta meta && checked(server, service, meta) != null) {
                    providers.putIfAbsent(meta.address(), meta);
                }
            }
        } else if (push.providers() instanceof RegisterMeta meta) {
            if (known != null && message.version() <= known) {
                log.debug("dropping stale push {} (version {} <= {})", LogText.of(meta), message.version(), known);
                return false;
            }
            view.versions.put(service, message.version());
            if (message.messageCode() == RegistryFrames.PUBLISH_SERVICE) {
                if (checked(server, service, meta) != null) {
                    providers.put(meta.address(), meta);
                }
            } else {
                providers.remove(meta.address());
            }
        } else {
            return false;
        }
        return true;
    }

    /** Bad providers skipped so far. */
    long skipped() {
        return records.skipped();
    }

    private RegisterMeta checked(InetSocketAddress server, ServiceMeta service, RegisterMeta meta) {
        return records.accept("a push from registry " + server, service, meta.service(), meta.address().host(),
                HostRule.IP_OR_HOST_NAME, meta.address().port(), meta.weight(), meta.connCount());
    }

    /** Removes a provider {@code server} reports offline; returns the services whose list it was in. */
    Set<ServiceMeta> offline(InetSocketAddress server, ProviderAddress address) {
        Set<ServiceMeta> changed = new LinkedHashSet<>();
        for (Map.Entry<ServiceMeta, Map<ProviderAddress, RegisterMeta>> entry : view(server).providers.entrySet()) {
            if (entry.getValue().remove(address) != null) {
                changed.add(entry.getKey());
            }
        }
        return changed;
    }

    /** Recomputes the union for {@code service}; returns it if it changed, else {@code null}. */
    List<RegisterMeta> remerge(ServiceMeta service) {
        Map<ProviderAddress, RegisterMeta> union = new LinkedHashMap<>();
        for (ServerView view : views.values()) {
            Map<ProviderAddress, RegisterMeta> providers = view.providers.get(service);
            if (providers != null) {
                providers.forEach(union::putIfAbsent);
            }
        }
        List<RegisterMeta> now = List.copyOf(union.values());
        if (now.equals(merged.get(service))) {
            return null;
        }
        merged.put(service, now);
        return now;
    }

    private ServerView view(InetSocketAddress server) {
        return views.computeIfAbsent(server, a -> new ServerView());
    }

    /** What one registry server has told this client. */
    private static final class ServerView {
        final Map<ServiceMeta, Long> versions = new HashMap<>();
        final Map<ServiceMeta, Map<ProviderAddress, RegisterMeta>> providers = new HashMap<>();
    }
}
