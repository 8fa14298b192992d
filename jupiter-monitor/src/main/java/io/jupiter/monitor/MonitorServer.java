package io.jupiter.monitor;

import io.jupiter.common.BindingBuilder;
import io.jupiter.common.NamedThreadFactory;
import io.jupiter.common.Requires;
import io.jupiter.monitor.internal.Attached;
import io.jupiter.monitor.internal.AuthThrottle;
import io.jupiter.monitor.internal.Commands;
import io.jupiter.monitor.internal.ConsoleSession;
import io.jupiter.monitor.internal.MetricsHttpServer;
import io.jupiter.monitor.internal.PasswordHash;
import io.jupiter.monitor.internal.SessionSlots;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.netty.ReloadingSslContext;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.string.StringDecoder;
import io.netty.handler.codec.string.StringEncoder;
import io.netty.handler.timeout.IdleStateHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A line-based console for operators ({@code telnet 127.0.0.1 19999} or {@code nc}), and optionally an HTTP
 * endpoint with the same metrics in Prometheus text format and JSON.
 *
 * <pre>{@code
 * MonitorServer monitor = MonitorServer.builder()
 *         .password(System.getenv(MonitorServer.PASSWORD_ENV).toCharArray())
 *         .server(jupiterServer)
 *         .client(jupiterClient)
 *         .build();
 * monitor.start();                       // 127.0.0.1:19999
 * }</pre>
 *
 * <p>Secure by default: it binds to 127.0.0.1, cannot be built without a password (kept only as a salted hash),
 * answers nothing but {@code help}, {@code auth} and {@code quit} before a successful {@code auth}, and closes a
 * session after 3 failed {@code auth}. Failed passwords are counted per address across sessions and the HTTP
 * endpoint: past 3, every attempt from that address waits (console) or is refused (HTTP, 429) for a delay that
 * doubles with each failure. Lines are capped in length; unauthenticated and authenticated sessions are capped in
 * number separately, an unauthenticated one closes after its deadline and any one when idle. The HTTP endpoint caps
 * its connections, and a request must arrive whole within 10 s.
 */
public final class MonitorServer implements AutoCloseable {

    /** The environment variable the examples read the password from. */
    public static final String PASSWORD_ENV = "JUPITER_MONITOR_PASSWORD";
    /** The original's console port. */
    public static final int DEFAULT_PORT = 19999;

    private final Builder config;
    private final Attached attached;
    private final PasswordHash password;
    private final AuthThrottle throttle;
    private final EventLoopGroup group;
    private final SessionSlots sessions;
    private volatile Channel serverChannel;
    private volatile MetricsHttpServer http;
    private final ReloadingSslContext httpTls;

    private MonitorServer(Builder builder, PasswordHash password) {
        // First: a TLS file that does not load fails here, before any thread is started.
        this.httpTls = builder.httpTls == null ? null : ReloadingSslContext.forServer(builder.httpTls);
        this.config = builder;
        this.password = password;
        this.attached = new Attached(builder.servers, builder.clients, builder.registry);
        this.throttle = new AuthThrottle(builder.authDelayMillis, builder.maxAuthDelayMillis, 10 * 60_000L);
        this.group = new MultiThreadIoEventLoopGroup(1, new NamedThreadFactory("jupiter-monitor", true),
                NioIoHandler.newFactory());
        this.sessions = new SessionSlots(builder.maxSessions);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Binds the console (and the HTTP endpoint when configured); returns the console's bound address.
     *
     * @throws UncheckedIOException if a port cannot be bound
     */
    public InetSocketAddress start() {
        Commands commands = new Commands(attached);
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (!sessions.admit(ch)) {
                            ch.writeAndFlush(ch.alloc().buffer().writeBytes(("too many unauthenticated monitor "
                                    + "sessions (at most " + config.maxSessions + "), try later" + Commands.NEWLINE)
                                    .getBytes(StandardCharsets.UTF_8))).addListener(ChannelFutureListener.CLOSE);
                            return;
                        }
                        ch.pipeline()
                                .addLast(new IdleStateHandler(0, 0, config.idleSeconds, TimeUnit.SECONDS))
                                .addLast(new LineBasedFrameDecoder(config.maxLineLength, true, true))
                                .addLast(new StringDecoder(StandardCharsets.UTF_8))
                                .addLast(new StringEncoder(StandardCharsets.UTF_8))
                                .addLast(new ConsoleSession(commands, password, throttle, sessions,
                                        config.maxLineLength, TimeUnit.SECONDS.toMillis(config.authTimeoutSeconds)));
                    }
                });
        try {
            serverChannel = bootstrap.bind(config.hostToBind(), config.portToBind()).syncUninterruptibly().channel();
            if (config.httpPort >= 0) {
                http = new MetricsHttpServer(group, new InetSocketAddress(config.hostToBind(), config.httpPort),
                        attached, password, throttle, config.maxSessions, config.httpRequestTimeoutMillis, httpTls);
                http.start();
            }
        } catch (Exception e) {
            close();
            throw new UncheckedIOException(new IOException("monitor cannot bind " + config.hostToBind() + ":"
                    + config.portToBind() + (config.httpPort >= 0 ? " / http " + config.httpPort : "") + ": "
                    + e.getMessage(), e));
        }
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** The console's bound address, or {@code null} before {@link #start()}. */
    public InetSocketAddress address() {
        Channel channel = serverChannel;
        return channel == null ? null : (InetSocketAddress) channel.localAddress();
    }

    /** The HTTP endpoint's bound address, or {@code null} if it is off or not started. */
    public InetSocketAddress httpAddress() {
        MetricsHttpServer h = http;
        return h == null ? null : h.address();
    }

    /** Closes every session, stops listening and stops the monitor's threads. */
    @Override
    public void close() {
        Channel channel = serverChannel;
        if (channel != null) {
            channel.close().syncUninterruptibly();
        }
        sessions.closeAll();
        MetricsHttpServer h = http;
        if (h != null) {
            h.close();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        if (httpTls != null) {
            httpTls.close();
        }
    }

    /**
     * Builds a {@link MonitorServer}; {@link #password} is required. It listens on {@code 127.0.0.1} by default (only
     * local operators) and on port {@value MonitorServer#DEFAULT_PORT} ({@link #host}, {@link #port}).
     */
    public static final class Builder extends BindingBuilder<Builder> {
        private char[] password;
        private int httpPort = -1;
        private int maxLineLength = 1024;
        private int maxSessions = 32;
        private int idleSeconds = 600;
        private int authTimeoutSeconds = 30;
        private long httpRequestTimeoutMillis = 10_000;
        private long authDelayMillis = 1_000;
        private long maxAuthDelayMillis = 30_000;
        private final List<JupiterServer> servers = new ArrayList<>();
        private final List<JupiterClient> clients = new ArrayList<>();
        private RegistryView registry;
        private TlsConfig httpTls;

        private Builder() {
            super("127.0.0.1", DEFAULT_PORT);
        }

        /**
         * The password for {@code auth} (and HTTP basic authentication); at least 8 characters. Only a salted hash
         * is kept: the caller may wipe the array after {@link #build()}.
         */
        public Builder password(char[] password) {
            Requires.notNull(password, "password");
            Requires.argument(password.length >= 8, "password: " + password.length
                    + " characters (expected: at least 8)");
            this.password = password.clone();
            return this;
        }

        /** The HTTP metrics port ({@code /metrics}, {@code /metrics.json}), on the same host; default off (-1). */
        public Builder httpPort(int port) {
            this.httpPort = Requires.inRange(port, -1, 65535, "httpPort");
            return this;
        }

        /**
         * HTTPS for the HTTP endpoint: its key pair (and, with {@link TlsConfig#requireClientAuth()}, the CAs of the
         * client certificates scrapers must present); default {@code null}, plain HTTP. The files are checked by
         * {@link #build()} and re-read for new connections when they change. The console stays plaintext: bind it
         * to 127.0.0.1 (its default).
         */
        public Builder httpTls(TlsConfig tls) {
            this.httpTls = tls;
            return this;
        }

        /** Longest accepted line in bytes; a longer one closes the session. Default 1024. */
        public Builder maxLineLength(int bytes) {
            this.maxLineLength = Requires.inRange(bytes, 16, 1 << 20, "maxLineLength");
            return this;
        }

        /**
         * Sessions open at once, counted separately for unauthenticated and authenticated ones (so connections that
         * never authenticate cannot lock operators out), and HTTP connections; more are told so and closed.
         * Default 32.
         */
        public Builder maxSessions(int sessions) {
            this.maxSessions = Requires.positive(sessions, "maxSessions");
            return this;
        }

        /** A session with no traffic for this long is closed. Default 600 s. */
        public Builder idleSeconds(int seconds) {
            this.idleSeconds = Requires.positive(seconds, "idleSeconds");
            return this;
        }

        /**
         * How long the HTTP endpoint waits for a whole request after a connection opens or a response was sent (its
         * read timeout and keep-alive idle timeout in one); then it closes the connection. Default 10 s.
         */
        public Builder httpRequestTimeoutMillis(long millis) {
            this.httpRequestTimeoutMillis = Requires.positive(millis, "httpRequestTimeoutMillis");
            return this;
        }

        /** A session that has not authenticated within this long is closed. Default 30 s. */
        public Builder authTimeoutSeconds(int seconds) {
            this.authTimeoutSeconds = Requires.positive(seconds, "authTimeoutSeconds");
            return this;
        }

        /**
         * The delay before judging a password from an address that already failed 3 times (in any sessions or over
         * HTTP); doubles with each further failure up to {@code maxMillis}. Default 1 s, up to 30 s.
         */
        public Builder authDelay(long millis, long maxMillis) {
            this.authDelayMillis = Requires.positive(millis, "authDelay");
            Requires.argument(maxMillis >= millis, "authDelay max: " + maxMillis + " (expected: >= " + millis + ")");
            this.maxAuthDelayMillis = maxMillis;
            return this;
        }

        /** Reports on this server (provider metrics, services provided). */
        public Builder server(JupiterServer server) {
            servers.add(Requires.notNull(server, "server"));
            return this;
        }

        /** Reports on this client (consumer metrics, services consumed). */
        public Builder client(JupiterClient client) {
            clients.add(Requires.notNull(client, "client"));
            return this;
        }

        /** Answers the {@code registry} commands from this view. */
        public Builder registry(RegistryView registry) {
            this.registry = Requires.notNull(registry, "registry");
            return this;
        }

        /**
         * @throws IllegalStateException if no password is configured: the monitor never runs without one
         * @throws IllegalArgumentException if {@link #httpTls(TlsConfig)} is set and its files do not load
         */
        public MonitorServer build() {
            if (password == null) {
                throw new IllegalStateException("no monitor password configured: set one with password(...), e.g. "
                        + "from the environment variable " + PASSWORD_ENV);
            }
            PasswordHash hash = PasswordHash.of(password);
            Arrays.fill(password, '\0');
            password = null;
            return new MonitorServer(this, hash);
        }
    }
}
