package io.jupiter.transport.netty;

import io.jupiter.common.Requires;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.netty.internal.PemFiles;
import io.jupiter.transport.netty.internal.TlsGate;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS context of one endpoint, made from a {@link TlsConfig} and made again when its files change: each
 * {@link #newHandler} first compares the files' modification time, size and identity (inode) with those the current
 * context was read from, and if any differs reads them again. So replacing the certificate and key files rotates
 * them without a restart: new connections get the new certificate, open ones keep theirs. A change that does not
 * load (a file half written, a key that does not match its certificate yet) is logged (at most once a minute) and
 * the previous context stays in use; the files are tried again when they change again.
 *
 * <p>Every context offers TLS 1.3 and 1.2 only ({@link TlsConfig#PROTOCOLS}); a client context checks the server's
 * host name (endpoint identification {@code HTTPS}) unless {@link TlsConfig#verifyHostname()} is off. OpenSSL
 * contexts hold native memory: a replaced context is released (its open connections hold their own references), and
 * {@link #close()} releases the current one.
 *
 * <p>Used by the acceptor and connector of this module, and by other Netty servers of Jupiter (the monitor's HTTP
 * endpoint).
 */
public final class ReloadingSslContext implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(ReloadingSslContext.class);

    private final TlsConfig config;
    private final boolean server;
    private final SslProvider provider;
    /** The ALPN names offered, in order of preference; empty: no ALPN. */
    private final List<String> applicationProtocols;
    private final List<Path> files = new ArrayList<>(3);
    private final ThrottledWarning reloadFailures = new ThrottledWarning(logger, 1, TimeUnit.MINUTES);

    // Guarded by this.
    private SslContext context;
    private List<Object> loadedStamps;
    private List<Object> failedStamps;
    private boolean closed;

    private ReloadingSslContext(TlsConfig config, boolean server, List<String> applicationProtocols) {
        this.config = Requires.notNull(config, "tls");
        this.server = server;
        this.applicationProtocols = List.copyOf(applicationProtocols);
        Requires.argument(!server || config.hasKeyPair(),
                "tls: " + config + " (expected: a certificate and key for a server)");
        this.provider = provider(config.provider());
        if (config.certificateFile() != null) {
            files.add(config.certificateFile());
            files.add(config.keyFile());
        }
        if (config.trustFile() != null) {
            files.add(config.trustFile());
        }
        this.loadedStamps = stamps();
        this.context = load();
    }

    /**
     * A server context.
     *
     * @throws IllegalArgumentException if the configuration has no key pair, or a file does not load (the message
     *         names it and why)
     */
    public static ReloadingSslContext forServer(TlsConfig config) {
        return forServer(config, List.of());
    }

    /**
     * A server context offering {@code applicationProtocols} by ALPN, in that order of preference (the first a
     * client also offers is chosen). A client offering none of them, or no ALPN at all, still connects, with no
     * protocol chosen.
     *
     * @throws IllegalArgumentException as {@link #forServer(TlsConfig)}
     */
    public static ReloadingSslContext forServer(TlsConfig config, List<String> applicationProtocols) {
        return new ReloadingSslContext(config, true, Requires.notNull(applicationProtocols, "applicationProtocols"));
    }

    /**
     * A client context.
     *
     * @throws IllegalArgumentException if a file does not load (the message names it and why)
     */
    public static ReloadingSslContext forClient(TlsConfig config) {
        return forClient(config, List.of());
    }

    /**
     * A client context offering {@code applicationProtocols} by ALPN. A server that chooses none of them is not
     * refused by the handshake: the caller reads {@link SslHandler#applicationProtocol()} once it is done and decides.
     *
     * @throws IllegalArgumentException as {@link #forClient(TlsConfig)}
     */
    public static ReloadingSslContext forClient(TlsConfig config, List<String> applicationProtocols) {
        return new ReloadingSslContext(config, false, Requires.notNull(applicationProtocols, "applicationProtocols"));
    }

    /** {@code "OpenSSL"} or {@code "JDK"}: the implementation in use. */
    public String providerName() {
        return provider == SslProvider.OPENSSL ? "OpenSSL" : "JDK";
    }

    /**
     * A handler for a new connection, from the files as they are now.
     *
     * @param peer the remote address: a client checks the server certificate against its host
     * @throws IllegalStateException if closed
     */
    public SslHandler newHandler(ByteBufAllocator alloc, InetSocketAddress peer) {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("TLS context closed");
            }
            reloadIfChanged();
            // Made under the lock: a context replaced concurrently is not released before the engine holds it.
            return server ? context.newHandler(alloc)
                    : context.newHandler(alloc, peer.getHostString(), peer.getPort());
        }
    }

    /**
     * Adds this context's TLS to the head of a new channel's pipeline: an {@link SslHandler} ({@code "tls"}) for the
     * files as they are now, then a gate ({@code "tls-gate"}) that holds {@code channelActive} back until the
     * handshake has succeeded and closes the channel when it fails (a plaintext peer fails on its first bytes). Call
     * it from the channel initializer, before adding the other handlers.
     *
     * @param peer the remote address (a client checks the server certificate against its host)
     * @param failures where a failed handshake is logged, one line at most once per interval and peer; {@code null}
     *                 logs nothing (a client, whose caller learns it from the handshake event)
     */
    public void addTo(ChannelPipeline pipeline, InetSocketAddress peer, ThrottledWarning failures) {
        pipeline.addFirst("tls-gate", new TlsGate(failures));
        pipeline.addFirst("tls", newHandler(pipeline.channel().alloc(), peer));
    }

    /** Releases the current context; handlers made before keep working until their connections close. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            ReferenceCountUtil.release(context);
        }
    }

    @Override
    public String toString() {
        return "ReloadingSslContext[" + (server ? "server" : "client") + ", " + providerName() + ", " + config + ']';
    }

    private void reloadIfChanged() {
        List<Object> now = stamps();
        if (now == null || now.equals(loadedStamps) || now.equals(failedStamps)) {
            return;
        }
        SslContext loaded;
        try {
            loaded = load();
        } catch (IllegalArgumentException e) {
            failedStamps = now;
            reloadFailures.warn("TLS files changed but do not load, keeping the previous certificate: {}",
                    e.getMessage());
            return;
        }
        ReferenceCountUtil.release(context);
        context = loaded;
        loadedStamps = now;
        failedStamps = null;
        logger.info("TLS files reloaded: {}", files);
    }

    /** What identifies each file's content cheaply; {@code null} if one cannot be read right now. */
    private List<Object> stamps() {
        List<Object> stamps = new ArrayList<>(files.size() * 3);
        for (Path file : files) {
            try {
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                stamps.add(attributes.lastModifiedTime());
                stamps.add(attributes.size());
                stamps.add(attributes.fileKey());
            } catch (IOException e) {
                return null;
            }
        }
        return stamps;
    }

    private SslContext load() {
        SslContextBuilder builder;
        if (config.hasKeyPair()) {
            X509Certificate[] chain = PemFiles.certificates(config.certificateFile(), "certificate");
            PrivateKey key = PemFiles.privateKey(config.keyFile());
            PemFiles.checkPair(key, chain[0], config.keyFile(), config.certificateFile());
            builder = server ? SslContextBuilder.forServer(key, chain) : SslContextBuilder.forClient().keyManager(key,
                    chain);
        } else {
            builder = SslContextBuilder.forClient();
        }
        if (config.trustFile() != null) {
            builder.trustManager(PemFiles.certificates(config.trustFile(), "trust"));
        }
        if (server) {
            builder.clientAuth(config.requireClientAuth() ? ClientAuth.REQUIRE
                    : config.trustFile() != null ? ClientAuth.OPTIONAL : ClientAuth.NONE);
        } else {
            builder.endpointIdentificationAlgorithm(config.verifyHostname() ? "HTTPS" : null);
        }
        if (!applicationProtocols.isEmpty()) {
            // NO_ADVERTISE and ACCEPT: a peer without a common protocol (or without ALPN) is not refused here.
            builder.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, applicationProtocols));
        }
        builder.sslProvider(provider).protocols(TlsConfig.PROTOCOLS);
        try {
            return builder.build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("TLS: " + config + " does not load: " + e.getMessage(), e);
        }
    }

    private static SslProvider provider(TlsConfig.Provider wanted) {
        return switch (wanted) {
            case JDK -> SslProvider.JDK;
            case OPENSSL -> {
                if (!OpenSsl.isAvailable()) {
                    throw new IllegalArgumentException("tls provider: OPENSSL (not available here: "
                            + OpenSsl.unavailabilityCause() + ")");
                }
                yield SslProvider.OPENSSL;
            }
            case AUTO -> OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
        };
    }
}
