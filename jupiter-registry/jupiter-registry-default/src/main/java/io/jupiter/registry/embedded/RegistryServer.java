package io.jupiter.registry.embedded;

import io.jupiter.common.BindingBuilder;
import io.jupiter.common.Requires;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.internal.RegistryAuth;
import io.jupiter.registry.embedded.internal.RegistryCodec;
import io.jupiter.registry.embedded.internal.RegistryFrames;
import io.jupiter.registry.embedded.internal.RegistryServerHandler;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import java.net.InetSocketAddress;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded registry server. Providers publish to it, consumers subscribe, and it pushes every change; when a
 * provider's connection drops, its services are withdrawn and subscribers get an offline notice.
 *
 * <pre>{@code
 * try (RegistryServer registry = RegistryServer.builder().port(20001).secret(secret).build()) {
 *     registry.start();
 *     ...  // JupiterServer.builder().registry("default://127.0.0.1:20001") ...
 * }
 * }</pre>
 *
 * <p>What it enforces on every peer, with or without a secret:
 * <ul>
 *   <li>A peer withdraws only what it published on the same connection, and the offline notice sent when its
 *       connection closes names only addresses it published (and no other connection still publishes).</li>
 *   <li>A published host is the address the peer connects from: an empty host (what 1.3.1 providers send) or a
 *       wildcard one ({@code 0.0.0.0}) is filled in with it, another one is refused, unless
 *       {@link Builder#allowAnyPublishedHost(boolean)} (for providers behind NAT or publishing a DNS name).</li>
 *   <li>Per connection: at most {@value #DEFAULT_MAX_PUBLICATIONS} publications, {@value #DEFAULT_MAX_SUBSCRIPTIONS}
 *       subscriptions and {@value #DEFAULT_MAX_UNACKED_PUSHES} pushes awaiting an ACK (a slow or silent subscriber
 *       beyond it is closed); strings in a message of at most {@value #MAX_STRING_BYTES} bytes (a longer one closes
 *       the connection). Each refusal is one WARN line (at most one a second per peer address).</li>
 * </ul>
 *
 * <p>With {@link Builder#secret(String)} every client must prove it knows the shared secret before anything else
 * (and the registry proves it to the client); without one the wire is 1.3.1's. It binds {@code 127.0.0.1} unless
 * given a host, and warns when it listens beyond loopback without a secret.
 *
 * <p>With {@link Builder#tls(TlsConfig)} the port speaks TLS only (a plaintext peer, such as a 1.3.1 provider, is
 * closed at once with one log line); its clients then need TLS too: {@link EmbeddedRegistryFactory}.
 */
public final class RegistryServer implements AutoCloseable {

    /** The default port, as in 1.3.1's examples. */
    public static final int DEFAULT_PORT = 20001;
    /** The default address to bind: loopback only. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** Default cap of the publications one connection may hold. */
    public static final int DEFAULT_MAX_PUBLICATIONS = 1024;
    /** Default cap of the services one connection may subscribe to. */
    public static final int DEFAULT_MAX_SUBSCRIPTIONS = 1024;
    /** Default cap of the pushes to one connection that may await their ACK. */
    public static final int DEFAULT_MAX_UNACKED_PUSHES = 4096;
    /** The longest string in a registry message, in bytes of UTF-8 (fixed). */
    public static final int MAX_STRING_BYTES = RegistryCodec.MAX_STRING_BYTES;
    /** Default time a client has to prove the secret, in milliseconds. */
    public static final long DEFAULT_AUTH_TIMEOUT_MILLIS = RegistryAuth.DEFAULT_TIMEOUT_MILLIS;

    private static final Logger log = LoggerFactory.getLogger(RegistryServer.class);

    private final RegistryServerHandler handler;
    private final Acceptor acceptor;
    private final boolean hasSecret;

    private RegistryServer(Builder builder) {
        this.hasSecret = builder.auth != null;
        this.handler = new RegistryServerHandler(builder.resendMillis, new RegistryServerHandler.Policy(builder.auth,
                builder.anyPublishedHost, builder.maxPublications, builder.maxSubscriptions,
                builder.maxUnackedPushes, builder.authTimeoutMillis));
        TransportConfig config = builder.transportConfig.toBuilder().acceptedMessageCodes(RegistryFrames.MESSAGE_CODES)
                .build();
        this.acceptor = TransportFactory.load().newAcceptor(config,
                new InetSocketAddress(builder.hostToBind(), builder.portToBind()), handler);
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds and starts serving; returns once bound.
     *
     * @return the bound address (the real port when configured with port 0)
     */
    public InetSocketAddress start() {
        InetSocketAddress bound = (InetSocketAddress) acceptor.start(); // bound to a host and port: TCP
        if (!hasSecret && !bound.getAddress().isLoopbackAddress()) {
            log.warn("the registry listens on {} without a secret: anyone who reaches this port may publish and "
                    + "subscribe (set a secret: RegistryServer.Builder.secret, or JUPITER_REGISTRY_SECRET for the "
                    + "example commands; or bind 127.0.0.1)", bound);
        }
        return bound;
    }

    /** The bound address, or {@code null} before {@link #start()}. */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) acceptor.localAddress();
    }

    /** The providers of a service this server knows now. */
    public List<RegisterMeta> providers(ServiceMeta service) {
        return handler.providers(service);
    }

    /** Every provider of every service this server knows now, in the order they published. */
    public List<RegisterMeta> allProviders() {
        return handler.allProviders();
    }

    /** The remote addresses of the consumers subscribed to at least one service now. */
    public List<InetSocketAddress> subscribers() {
        return handler.subscribers();
    }

    /** Closes every connection (subscribers keep their last lists) and stops the server's threads. */
    @Override
    public void close() {
        handler.close();
        acceptor.close();
    }

    /**
     * Builds a {@link RegistryServer}. It listens on {@value RegistryServer#DEFAULT_HOST} by default (this machine
     * only) and on port {@value RegistryServer#DEFAULT_PORT} ({@link #host}, {@link #port}). Give
     * {@code host("0.0.0.0")} or an interface's address to serve other machines, and then a {@link #secret(String)}
     * (a WARN line says so when there is none).
     */
    public static final class Builder extends BindingBuilder<Builder> {
        private long resendMillis = 10_000;
        private RegistryAuth auth;
        private boolean anyPublishedHost;
        private int maxPublications = DEFAULT_MAX_PUBLICATIONS;
        private int maxSubscriptions = DEFAULT_MAX_SUBSCRIPTIONS;
        private int maxUnackedPushes = DEFAULT_MAX_UNACKED_PUSHES;
        private long authTimeoutMillis = DEFAULT_AUTH_TIMEOUT_MILLIS;
        private TransportConfig transportConfig = TransportConfig.builder().threadNamePrefix("jupiter-registry")
                .writerIdleMillis(0).ioThreads(1).build();

        private Builder() {
            super(DEFAULT_HOST, DEFAULT_PORT);
        }

        /** A push not acknowledged for this long is sent again; default 10,000 ms (1.3.1's). */
        public Builder resendMillis(long millis) {
            this.resendMillis = Requires.positive(millis, "resendMillis");
            return this;
        }

        /** Transport settings (idle timeout, IO threads, body cap); the accepted message codes are set here. */
        public Builder transportConfig(TransportConfig config) {
            this.transportConfig = Requires.notNull(config, "transportConfig");
            return this;
        }

        /**
         * TLS on the registry's port (it needs a key pair; with {@link TlsConfig#requireClientAuth()} only clients
         * with a certificate of the trusted CAs may publish or subscribe); {@code null} (the default) for plaintext.
         * Shorthand for the {@code tls} of {@link #transportConfig(TransportConfig)}.
         */
        public Builder tls(TlsConfig tls) {
            this.transportConfig = transportConfig.toBuilder().tls(tls).build();
            return this;
        }

        /**
         * The shared secret every client must prove it knows before the registry reads anything else from it (the
         * registry proves it back); at least 16 bytes of UTF-8, never sent. Default none: any peer that reaches the
         * port may publish and subscribe, and the wire is 1.3.1's (a 1.3.1 provider or consumer cannot connect to a
         * registry with a secret). Clients take it from {@link EmbeddedRegistryFactory}. {@code null}: none.
         *
         * @throws IllegalArgumentException if it is shorter than 16 bytes
         */
        public Builder secret(String secret) {
            this.auth = secret == null ? null : RegistryAuth.of(secret);
            return this;
        }

        /**
         * Whether a provider may publish a host other than the address it connects from (behind NAT, or publishing
         * a DNS name); default false: such a publication is refused with a WARN line. An empty or wildcard host is
         * always filled in with that address.
         */
        public Builder allowAnyPublishedHost(boolean allow) {
            this.anyPublishedHost = allow;
            return this;
        }

        /** Publications one connection may hold; default {@value #DEFAULT_MAX_PUBLICATIONS}; more are refused. */
        public Builder maxPublicationsPerConnection(int max) {
            this.maxPublications = Requires.positive(max, "maxPublicationsPerConnection");
            return this;
        }

        /** Services one connection may subscribe to; default {@value #DEFAULT_MAX_SUBSCRIPTIONS}; more are refused. */
        public Builder maxSubscriptionsPerConnection(int max) {
            this.maxSubscriptions = Requires.positive(max, "maxSubscriptionsPerConnection");
            return this;
        }

        /**
         * Pushes to one connection that may await their ACK; default {@value #DEFAULT_MAX_UNACKED_PUSHES}; a
         * subscriber that lets more pile up is closed (it reconnects and subscribes afresh).
         */
        public Builder maxUnackedPushesPerConnection(int max) {
            this.maxUnackedPushes = Requires.positive(max, "maxUnackedPushesPerConnection");
            return this;
        }

        /** How long a client has to prove the secret; default {@value #DEFAULT_AUTH_TIMEOUT_MILLIS} ms. */
        public Builder authTimeoutMillis(long millis) {
            this.authTimeoutMillis = Requires.positive(millis, "authTimeoutMillis");
            return this;
        }

        /** The server; nothing is bound before {@link RegistryServer#start()}. */
        public RegistryServer build() {
            return new RegistryServer(this);
        }
    }
}
