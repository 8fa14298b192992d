package io.jupiter.registry;

import io.jupiter.common.Requires;

/**
 * One provider of one service, as published: its address, the service, its weight and the number of connections it
 * asks each consumer to keep to it (1.3.1's {@code RegisterMeta}).
 *
 * @param weight    relative share of the calls, 0 to {@link #MAX_WEIGHT}; 0 means "only if nothing else is left"
 * @param connCount connections a consumer should keep to this provider, at least 1
 */
public record RegisterMeta(ProviderAddress address, ServiceMeta service, int weight, int connCount) {

    /** The default weight (1.3.1's {@code DEFAULT_WEIGHT}). */
    public static final int DEFAULT_WEIGHT = 50;
    /** The largest weight (1.3.1's {@code MAX_WEIGHT}). */
    public static final int MAX_WEIGHT = 100;

    public RegisterMeta {
        Requires.notNull(address, "address");
        Requires.notNull(service, "service");
        Requires.inRange(weight, 0, MAX_WEIGHT, "weight");
        Requires.inRange(connCount, 1, 64, "connCount");
    }

    /** This registration with another address. */
    public RegisterMeta withAddress(ProviderAddress newAddress) {
        return new RegisterMeta(newAddress, service, weight, connCount);
    }

    @Override
    public String toString() {
        return service + "@" + address + "(weight " + weight + ", connections " + connCount + ')';
    }
}
