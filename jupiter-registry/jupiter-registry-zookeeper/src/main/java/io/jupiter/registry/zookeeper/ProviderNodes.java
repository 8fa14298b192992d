package io.jupiter.registry.zookeeper;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;

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
     * The provider a child name stands for.
     *
     * @throws IllegalArgumentException if the name is not {@code host:port:weight:connCount}
     */
    static RegisterMeta parse(ServiceMeta service, String child) {
        String[] parts = child.split(":");
        if (parts.length != 4 || parts[0].isBlank()) {
            throw new IllegalArgumentException("provider node '" + child + "' (expected: host:port:weight:connCount)");
        }
        try {
            int weight = Integer.parseInt(parts[2]);
            int connCount = Integer.parseInt(parts[3]);
            // 1.3.1 publishes weight 0 when the provider set none, and connCount 0 never makes sense: clamp both.
            return new RegisterMeta(new ProviderAddress(parts[0], Integer.parseInt(parts[1])), service,
                    Math.max(0, Math.min(weight, RegisterMeta.MAX_WEIGHT)), Math.max(1, Math.min(connCount, 64)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("provider node '" + child + "' (expected: host:port:weight:connCount)",
                    e);
        }
    }
}
