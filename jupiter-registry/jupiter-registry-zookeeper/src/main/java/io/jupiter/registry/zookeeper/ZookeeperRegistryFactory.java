package io.jupiter.registry.zookeeper;

import io.jupiter.common.SystemProperties;
import io.jupiter.registry.RegistryFactory;
import io.jupiter.registry.RegistryService;

/**
 * Scheme {@code zookeeper}. Session timeout {@code jupiter.registry.zookeeper.sessionTimeoutMs} (60,000), connection
 * timeout {@code jupiter.registry.zookeeper.connectionTimeoutMs} (15,000), as in 1.3.1.
 */
public final class ZookeeperRegistryFactory implements RegistryFactory {

    @Override
    public String scheme() {
        return "zookeeper";
    }

    @Override
    public RegistryService connect(String addresses) {
        return new ZookeeperRegistryService(addresses,
                SystemProperties.getInt("jupiter.registry.zookeeper.sessionTimeoutMs", 60_000),
                SystemProperties.getInt("jupiter.registry.zookeeper.connectionTimeoutMs", 15_000));
    }
}
