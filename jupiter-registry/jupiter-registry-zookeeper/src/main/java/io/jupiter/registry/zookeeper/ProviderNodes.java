package io.jupiter.registry.zookeeper;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.internal.ProviderRecords;
import io.jupiter.registry.internal.ProviderRecords.HostRule;

/**
 * 1.3.1's node layout: {@code /jupiter/provider/{group}/{name}/{version}} is a persistent parent with one
 * ephemeral child per provider, named {@code {host}:{port}:{weight}:{connCount}} (no data). Weight and connection
 * count are part of the name, so changing either makes a new node.
 */
final class ProviderNodes {

    static final String ROOT = "/jupiter/provider";

    private ProviderNodes() {
    }

    static String parent(ServiceMeta service) {
        return ROOT + '/' + service.group() + '/' + service.name() + '/' + service.version();
    }

    static String node(RegisterMeta meta) {
        ProviderAddress address = meta.address();
        return parent(meta.service()) + '/' + address.host() + ':' + address.port() + ':' + meta.weight() + ':'
                + meta.connCount();
    }

    /**
     * The provider a child name stands for, or {@code null} if the name is not {@code host:port:weight:connCount}
     * with a valid host and port (then {@code records} skipped it: logged once and counted). A weight and a
     * connection count out of range are clamped (1.3.1 publishes weight 0 when the provider set none).
     */
    static RegisterMeta parse(ServiceMeta service, String child, ProviderRecords records) {
        String source = "node " + parent(service);
        String[] parts = child.split(":", -1);
        if (parts.length != 4) {
            records.skip(source, child, "not host:port:weight:connCount");
            return null;
        }
        Integer port = number(parts[1]);
        Integer weight = number(parts[2]);
        Integer connCount = number(parts[3]);
        if (weight == null || connCount == null) {
            records.skip(source, child, "weight and connection count must be numbers");
            return null;
        }
        return records.accept(source, service, service, parts[0], HostRule.IP_OR_HOST_NAME,
                port == null ? Integer.valueOf(-1) : port, weight, connCount);
    }

    private static Integer number(String text) {
        try {
            return Integer.valueOf(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
