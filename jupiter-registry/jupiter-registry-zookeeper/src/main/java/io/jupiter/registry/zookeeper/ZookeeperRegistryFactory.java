package io.jupiter.registry.zookeeper;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.registry.RegistryFactory;
import io.jupiter.registry.RegistryService;

/**
 * Scheme {@code zookeeper}. Session timeout {@code jupiter.registry.zookeeper.sessionTimeoutMs} (60,000), connection
 * timeout {@code jupiter.registry.zookeeper.connectionTimeoutMs} (15,000), as in 1.3.1.
 *
 * <p>Digest credentials: clients made from a URL read {@code user:password} from the environment variable
 * {@value #DIGEST_ENVIRONMENT_VARIABLE}; {@link #connect(String, String)} takes them directly. With them, the session
 * authenticates ({@code digest} scheme) and every node the client creates gets an ACL giving all rights to that
 * identity and read rights to anyone: a client without the credentials can read the providers but neither publish
 * under a service nor delete or change our nodes. Every provider of a service must then use the same credentials.
 * Without them (the default) nodes are open to everyone, as in 1.3.1.
 */
public final class ZookeeperRegistryFactory implements RegistryFactory {

    /** Environment variable: the digest credentials ({@code user:password}) of clients made from a URL. */
    public static final String DIGEST_ENVIRONMENT_VARIABLE = "JUPITER_ZOOKEEPER_DIGEST";

    @Override
    public String scheme() {
        return "zookeeper";
    }

    @Override
    public RegistryService connect(String addresses) {
        String digest = System.getenv(DIGEST_ENVIRONMENT_VARIABLE);
        return connect(addresses, digest == null || digest.isEmpty() ? null : digest);
    }

    /**
     * A client with digest credentials ({@code user:password}, or {@code null} for none).
     *
     * @throws IllegalArgumentException if the credentials are not {@code user:password} (never echoed)
     */
    public static RegistryService connect(String addresses, String digest) {
        return new ZookeeperRegistryService(addresses,
                JupiterSettings.ZOOKEEPER_SESSION_TIMEOUT_MILLIS.get(),
                JupiterSettings.ZOOKEEPER_CONNECTION_TIMEOUT_MILLIS.get(), digest);
    }
}
