package io.jupiter.registry.kubernetes.internal;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.internal.ProviderRecords;
import io.jupiter.registry.internal.ProviderRecords.HostRule;
import io.jupiter.registry.kubernetes.ServiceLabels;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the EndpointSlices of a namespace into the providers of one service key: the slices whose labels name the
 * key, their port of the configured name, and of their endpoints only those that may get new calls. Every endpoint
 * goes through {@link ProviderRecords}: its port must be 1-65535 and its first address an IP literal of the slice's
 * address type (IPv4 or IPv6); a slice of address type FQDN (or any other) is skipped, as its endpoints name hosts to
 * be resolved, which is a DNS registry's job, not this one's.
 */
final class SliceProviders {

    private static final Logger log = LoggerFactory.getLogger(SliceProviders.class);

    private SliceProviders() {
    }

    /**
     * Whether an endpoint may get new calls: {@code ready} not false and {@code terminating} not true. Kubernetes
     * says an unset {@code ready} means ready; a terminating endpoint that is still {@code serving} is draining (it
     * finishes what it has; it gets nothing new), and one whose Service publishes not-ready addresses may be ready
     * and terminating at once.
     */
    static boolean callable(Endpoint endpoint) {
        EndpointConditions conditions = endpoint.getConditions();
        if (conditions == null) {
            return true;
        }
        return !Boolean.FALSE.equals(conditions.getReady()) && !Boolean.TRUE.equals(conditions.getTerminating());
    }

    /**
     * The callable providers of {@code service} in {@code slices}, ordered by address; an address in several slices
     * counts once (the first slice by name wins).
     */
    static List<RegisterMeta> providers(ServiceMeta service, String portName, Collection<EndpointSlice> slices,
                                        ProviderRecords records) {
        List<EndpointSlice> ordered = new ArrayList<>(slices);
        ordered.sort(Comparator.comparing(slice -> slice.getMetadata().getName()));
        Map<ProviderAddress, RegisterMeta> providers = new LinkedHashMap<>();
        for (EndpointSlice slice : ordered) {
            Map<String, String> labels = slice.getMetadata().getLabels();
            if (labels == null || !service.name().equals(labels.get(ServiceLabels.SERVICE))
                    || !service.group().equals(labels.get(ServiceLabels.GROUP))
                    || !service.version().equals(labels.get(ServiceLabels.VERSION))) {
                continue;
            }
            Integer port = port(slice, portName);
            if (port == null || slice.getEndpoints() == null) {
                continue;
            }
            String source = "EndpointSlice " + slice.getMetadata().getName();
            HostRule rule = hostRule(slice.getAddressType());
            if (rule == null) {
                records.skip(source, "addressType " + slice.getAddressType(), "only IPv4 and IPv6 slices are followed"
                        + " (an FQDN endpoint names a host to resolve: use a dns:// registry for those)");
                continue;
            }
            int weight = label(slice, ServiceLabels.WEIGHT, RegisterMeta.DEFAULT_WEIGHT, 0, RegisterMeta.MAX_WEIGHT,
                    records);
            int connections = label(slice, ServiceLabels.CONNECTIONS, JupiterSettings.SUGGESTED_CONNECTION_COUNT.get(),
                    1, 64, records);
            for (Endpoint endpoint : slice.getEndpoints()) {
                // Kubernetes: the addresses of one endpoint are interchangeable; the first is the one to use.
                if (endpoint == null || !callable(endpoint) || endpoint.getAddresses() == null
                        || endpoint.getAddresses().isEmpty()) {
                    continue;
                }
                RegisterMeta meta = records.accept(source, service, service, endpoint.getAddresses().get(0), rule,
                        port, weight, connections);
                if (meta != null) {
                    providers.putIfAbsent(meta.address(), meta);
                }
            }
        }
        List<RegisterMeta> result = new ArrayList<>(providers.values());
        result.sort(Comparator.comparing((RegisterMeta meta) -> meta.address().host())
                .thenComparingInt(meta -> meta.address().port()));
        return List.copyOf(result);
    }

    /** The host rule of a slice's address type, or {@code null} for one this registry does not follow. */
    private static HostRule hostRule(String addressType) {
        if ("IPv4".equals(addressType)) {
            return HostRule.IPV4;
        }
        if ("IPv6".equals(addressType)) {
            return HostRule.IPV6;
        }
        return null;
    }

    /**
     * The slice's port called {@code portName}; a slice with a single unnamed port (a Service with one port need not
     * name it) uses that one.
     */
    private static Integer port(EndpointSlice slice, String portName) {
        List<EndpointPort> ports = slice.getPorts();
        if (ports == null) {
            return null;
        }
        for (EndpointPort port : ports) {
            if (port != null && portName.equals(port.getName())) {
                return port.getPort();
            }
        }
        EndpointPort only = ports.size() == 1 ? ports.get(0) : null;
        if (only != null && (only.getName() == null || only.getName().isEmpty())) {
            return only.getPort();
        }
        log.debug("EndpointSlice {} has no port named '{}'; skipped", slice.getMetadata().getName(), portName);
        return null;
    }

    private static int label(EndpointSlice slice, String key, int fallback, int min, int max,
                             ProviderRecords records) {
        String value = slice.getMetadata().getLabels().get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Math.max(min, Math.min(max, Integer.parseInt(value.trim())));
        } catch (NumberFormatException e) {
            records.warnOnce("EndpointSlice " + slice.getMetadata().getName(), "label " + key + "='" + value
                    + "' is not a number (expected: " + min + " to " + max + "); using " + fallback);
            return fallback;
        }
    }
}
