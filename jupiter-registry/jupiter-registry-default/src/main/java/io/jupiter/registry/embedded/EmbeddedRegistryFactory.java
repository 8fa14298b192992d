package io.jupiter.registry.embedded;

import io.jupiter.common.SystemProperties;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryFactory;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.embedded.internal.EmbeddedRegistryClient;
import io.jupiter.transport.TransportConfig;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Scheme {@code default}: clients of {@link RegistryServer}s. Unacknowledged messages are resent after
 * {@code jupiter.registry.default.resend.millis} (default 10,000, as in 1.3.1).
 */
public final class EmbeddedRegistryFactory implements RegistryFactory {

    @Override
    public String scheme() {
        return "default";
    }

    @Override
    public RegistryService connect(String addresses) {
        return connect(addresses, SystemProperties.getLong("jupiter.registry.default.resend.millis", 10_000));
    }

    /** A client with an explicit resend interval. */
    public static RegistryService connect(String addresses, long resendMillis) {
        List<InetSocketAddress> servers = new ArrayList<>();
        for (ProviderAddress address : Registries.parseAddresses(addresses)) {
            servers.add(new InetSocketAddress(address.host(), address.port()));
        }
        TransportConfig config = TransportConfig.builder().threadNamePrefix("jupiter-registry-connector")
                .readerIdleMillis(0).ioThreads(1).build();
        return new EmbeddedRegistryClient(servers, config, resendMillis);
    }
}
