package io.jupiter.registry.embedded;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryFactory;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.embedded.internal.EmbeddedRegistryClient;
import io.jupiter.registry.embedded.internal.RegistryAuth;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Scheme {@code default}: clients of {@link RegistryServer}s. Unacknowledged messages are resent after
 * {@link JupiterSettings#REGISTRY_RESEND_MILLIS} (default 10,000 ms, as in 1.3.1).
 *
 * <p>A registry server with TLS needs clients with TLS. Those made from a URL ({@code default://host:port}, as
 * {@code JupiterServer.Builder.registry} and {@code JupiterClient.Builder.registry} make them) use TLS when the
 * system property {@link #TLS_TRUST} names the PEM file of the CAs to trust; {@link #TLS_CERT} and
 * {@link #TLS_KEY} add a client certificate (for a registry that requires one). Without them (the default) they
 * speak plaintext, as 1.3.1. {@link #connect(String, long, TlsConfig, String)} takes the settings directly.
 *
 * <p>A registry server with a secret ({@link RegistryServer.Builder#secret(String)}) needs clients with the same
 * secret. Those made from a URL read it from the environment variable {@value #SECRET_ENVIRONMENT_VARIABLE} (an
 * environment variable rather than a system property, which any user of the machine can read in the process list);
 * without it they use no secret, and the wire is 1.3.1's.
 */
public final class EmbeddedRegistryFactory implements RegistryFactory {

    /** System property: the trust file of registry clients made from a URL; set, they use TLS. */
    public static final String TLS_TRUST = JupiterSettings.REGISTRY_TLS_TRUST.property();
    /** System property: the certificate registry clients made from a URL present. */
    public static final String TLS_CERT = JupiterSettings.REGISTRY_TLS_CERT.property();
    /** System property: the key of {@link #TLS_CERT}. */
    public static final String TLS_KEY = JupiterSettings.REGISTRY_TLS_KEY.property();
    /** Environment variable: the registry's shared secret, for clients made from a URL and the example commands. */
    public static final String SECRET_ENVIRONMENT_VARIABLE = "JUPITER_REGISTRY_SECRET";

    @Override
    public String scheme() {
        return "default";
    }

    @Override
    public RegistryService connect(String addresses) {
        return connect(addresses, JupiterSettings.REGISTRY_RESEND_MILLIS.get(),
                tlsFromSystemProperties(), secretFromEnvironment());
    }

    /** A plaintext client without a secret, with an explicit resend interval. */
    public static RegistryService connect(String addresses, long resendMillis) {
        return connect(addresses, resendMillis, null, null);
    }

    /**
     * A client without a secret, with an explicit resend interval and TLS settings ({@code null}: plaintext).
     *
     * @throws IllegalArgumentException if the TLS files do not load
     */
    public static RegistryService connect(String addresses, long resendMillis, TlsConfig tls) {
        return connect(addresses, resendMillis, tls, null);
    }

    /**
     * A client with an explicit resend interval, TLS settings ({@code null}: plaintext) and the registry's shared
     * secret ({@code null}: none, the wire is 1.3.1's).
     *
     * @throws IllegalArgumentException if the TLS files do not load, or the secret is shorter than 16 bytes
     */
    public static RegistryService connect(String addresses, long resendMillis, TlsConfig tls, String secret) {
        RegistryAuth auth = secret == null ? null : RegistryAuth.of(secret);
        List<InetSocketAddress> servers = new ArrayList<>();
        for (ProviderAddress address : Registries.parseAddresses(addresses)) {
            servers.add(new InetSocketAddress(address.host(), address.port()));
        }
        TransportConfig config = TransportConfig.builder().threadNamePrefix("jupiter-registry-connector")
                .readerIdleMillis(0).ioThreads(1).tls(tls).build();
        return new EmbeddedRegistryClient(servers, config, resendMillis, auth);
    }

    /**
     * The secret in {@value #SECRET_ENVIRONMENT_VARIABLE}, or {@code null} when it is not set or empty.
     *
     * @throws IllegalArgumentException if it is set and shorter than 16 bytes (the message names the variable,
     *                                  never the value)
     */
    public static String secretFromEnvironment() {
        return secretFrom(System.getenv());
    }

    /** {@link #secretFromEnvironment()} over the given variables. */
    static String secretFrom(Map<String, String> environment) {
        String secret = environment.get(SECRET_ENVIRONMENT_VARIABLE);
        if (secret == null || secret.isEmpty()) {
            return null;
        }
        try {
            RegistryAuth.of(secret);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(SECRET_ENVIRONMENT_VARIABLE + ": " + e.getMessage(), e);
        }
        return secret;
    }

    /** The TLS of {@link #TLS_TRUST}, {@link #TLS_CERT} and {@link #TLS_KEY}, or {@code null} if no trust is set. */
    static TlsConfig tlsFromSystemProperties() {
        String trust = JupiterSettings.REGISTRY_TLS_TRUST.get();
        if (trust == null) {
            return null;
        }
        TlsConfig.Builder tls = TlsConfig.builder().trust(Path.of(trust));
        String cert = JupiterSettings.REGISTRY_TLS_CERT.get();
        if (cert != null) {
            String key = JupiterSettings.REGISTRY_TLS_KEY.get();
            if (key == null) {
                throw new IllegalArgumentException(TLS_KEY + ": not set (expected: the key of " + TLS_CERT + ")");
            }
            tls.keyPair(Path.of(cert), Path.of(key));
        }
        return tls.build();
    }
}
