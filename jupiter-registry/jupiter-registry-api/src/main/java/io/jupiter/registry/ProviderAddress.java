package io.jupiter.registry;

import io.jupiter.common.Requires;

/**
 * Where a provider listens. The host may be {@code null} in what a provider sends to the embedded registry: the
 * registry then fills in the address the provider's connection comes from, as 1.3.1 does.
 */
public record ProviderAddress(String host, int port) {

    public ProviderAddress {
        Requires.inRange(port, 0, 65535, "port");
    }

    /** This address with another host. */
    public ProviderAddress withHost(String newHost) {
        return new ProviderAddress(newHost, port);
    }

    @Override
    public String toString() {
        return host + ':' + port;
    }
}
