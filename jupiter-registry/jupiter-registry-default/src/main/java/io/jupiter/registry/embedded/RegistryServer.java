package io.jupiter.registry.embedded;

import io.jupiter.common.Requires;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.internal.RegistryFrames;
import io.jupiter.registry.embedded.internal.RegistryServerHandler;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The embedded registry server. Providers publish to it, consumers subscribe, and it pushes every change; when a
 * provider's connection drops, its services are withdrawn and subscribers get an offline notice.
 *
 * <pre>{@code
 * try (RegistryServer registry = RegistryServer.builder().port(20001).build()) {
 *     registry.start();
 *     ...  // JupiterServer.builder().registry("default://127.0.0.1:20001") ...
 * }
 * }</pre>
 *
 * <p>With {@link Builder#tls(TlsConfig)} the port speaks TLS only (a plaintext peer, such as a 1.3.1 provider, is
 * closed at once with one log line); its clients then need TLS too: {@link EmbeddedRegistryFactory}.
 */
public final class RegistryServer implements AutoCloseable {

    /** The default port, as in 1.3.1's examples. */
    public static final int DEFAULT_PORT = 20001;

    private final RegistryServerHandler handler;
    private final Acceptor acceptor;

    private RegistryServer(Builder builder) {
        this.handler = new RegistryServerHandler(builder.resendMillis);
        TransportConfig config = builder.transportConfig.toBuilder().acceptedMessageCodes(RegistryFrames.MESSAGE_CODES)
                .build();
        this.acceptor = TransportFactory.load().newAcceptor(config, new InetSocketAddress(builder.host, builder.port),
                handler);
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
        return (InetSocketAddress) acceptor.start(); // bound to a host and port: TCP
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

    /** Builds a {@link RegistryServer}. */
    public static final class Builder {
        private String host = "0.0.0.0";
        private int port = DEFAULT_PORT;
        private long resendMillis = 10_000;
        private TransportConfig transportConfig = TransportConfig.builder().threadNamePrefix("jupiter-registry")
                .writerIdleMillis(0).ioThreads(1).build();

        private Builder() {
        }

        /** The address to bind; default {@code 0.0.0.0}. */
        public Builder host(String host) {
            this.host = Requires.notBlank(host, "host");
            return this;
        }

        /** The port; default 20001; 0 picks a free one. */
        public Builder port(int port) {
            this.port = Requires.inRange(port, 0, 65535, "port");
            return this;
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

        public RegistryServer build() {
            return new RegistryServer(this);
        }
    }
}
