package io.jupiter.transport.netty;

import io.jupiter.common.Requires;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.InProcessAddress;
import io.jupiter.transport.PeerIncidents;
import io.jupiter.transport.TransportAddresses;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.netty.internal.FrameDispatcher;
import io.jupiter.transport.netty.internal.InProcessLoops;
import io.jupiter.transport.netty.internal.NettyConnectionGroup;
import io.jupiter.transport.netty.internal.Transports;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client side of the Netty transport. All its connections share one event loop group of
 * {@link TransportConfig#ioThreads()} daemon threads named {@code <threadNamePrefix>-connector-N}.
 *
 * <p>Each connection's pipeline:
 *
 * <pre>
 *  socket ──► [SslHandler ──► TlsGate, with TLS] ──► FlushConsolidation ──► WriterIdleHeartbeat
 *         ──► FrameDecoder ──► FrameDispatcher ──► group slot (reconnect)
 * </pre>
 *
 * <p>The address given to {@link #connect} picks the channel: TCP for an {@link InetSocketAddress}, a Unix domain
 * socket for a {@link java.net.UnixDomainSocketAddress} (native epoll only), Netty's local channel for an
 * {@link InProcessAddress} (on the event loops all in-process channels share, see {@link InProcessLoops}); the
 * pipeline is the same for all three.
 *
 * <p>With {@link TransportConfig#tls()} every (TCP) connection speaks TLS and counts as connected once its
 * handshake has succeeded; the server's certificate must chain to the trust file and, unless turned off, name the
 * host connected to. A failed handshake is reported by {@link ConnectionGroup#handshakeFailure()}.
 *
 * <p>{@link #connect} returns a {@link ConnectionGroup} at once and opens its connections in the background; see
 * {@link NettyConnectionGroup} for the reconnect policy. {@link #close()} closes every group, then shuts the event
 * loop group down and waits (at most a few seconds) for its threads to end; it must not be called from an IO thread.
 *
 * @see NettyAcceptor
 */
public final class NettyConnector implements Connector {

    private static final Logger logger = LoggerFactory.getLogger(NettyConnector.class);

    private final TransportConfig config;
    private final FrameDispatcher dispatcher;
    private final Transports transports;
    private final EventLoopGroup group;
    /** TCP. */
    private final Bootstrap bootstrap;
    /** Unix domain sockets and in-process: no TCP options, no event loops yet. */
    private final Bootstrap otherBootstrap;
    private final Set<NettyConnectionGroup> groups = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ReloadingSslContext tls;
    /** Set on the first connect to an in-process address: the shared in-process event loops. */
    private EventLoopGroup inProcessGroup;

    /**
     * A connector whose connections deliver frames to {@code handler}.
     *
     * @throws IllegalArgumentException if {@link TransportConfig#tls()} is set but does not load (the message names
     *         the file and why)
     */
    public NettyConnector(TransportConfig config, FrameHandler handler) {
        this.config = Requires.notNull(config, "config");
        this.dispatcher = new FrameDispatcher(handler);
        this.tls = config.tls() == null ? null : ReloadingSslContext.forClient(config.tls());
        this.transports = Transports.of(config);
        this.group = transports.newEventLoopGroup(config.ioThreads(), config.threadNamePrefix(), "connector", true);
        this.otherBootstrap = new Bootstrap()
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMillis())
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(config.writeBufferLowWaterMark(), config.writeBufferHighWaterMark()))
                .option(ChannelOption.ALLOCATOR, transports.allocator());
        this.bootstrap = otherBootstrap.clone()
                .group(group)
                .channel(transports.channelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.SO_REUSEADDR, true);
        logger.debug("connector using {}", transports.kind().description());
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException if the connector is closed
     */
    @Override
    public ConnectionGroup connect(SocketAddress address, int connections) {
        Requires.notNull(address, "address");
        Requires.positive(connections, "connections");
        transports.check(address);
        boolean tcp = TransportAddresses.isTcp(address);
        Requires.argument(tls == null || tcp, "TLS is for TCP only, not " + TransportAddresses.format(address)
                + " (a Unix domain socket is guarded by its file permissions, in-process never leaves the JVM):"
                + " connect with a connector whose TransportConfig has no tls()");
        if (closed.get()) {
            throw new IllegalStateException("connector is closed");
        }
        Bootstrap forAddress = tcp ? bootstrap : otherBootstrap.clone()
                .group(address instanceof InProcessAddress ? inProcessGroup() : group)
                .channel(transports.channelClass(address));
        NettyConnectionGroup connectionGroup = new NettyConnectionGroup(forAddress, config, dispatcher, tls, address,
                connections, groups::remove);
        groups.add(connectionGroup);
        if (closed.get()) {
            // close() ran concurrently and may have missed this group.
            connectionGroup.close();
            throw new IllegalStateException("connector is closed");
        }
        connectionGroup.start();
        return connectionGroup;
    }

    @Override
    public PeerIncidents incidents() {
        return dispatcher.incidents();
    }

    private synchronized EventLoopGroup inProcessGroup() {
        if (closed.get()) {
            throw new IllegalStateException("connector is closed"); // close() may have released the shared loops
        }
        if (inProcessGroup == null) {
            inProcessGroup = InProcessLoops.acquire();
        }
        return inProcessGroup;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (NettyConnectionGroup connectionGroup : groups) {
            connectionGroup.close();
        }
        Transports.shutdown(group);
        synchronized (this) {
            if (inProcessGroup != null) {
                InProcessLoops.release();
            }
        }
        if (tls != null) {
            tls.close();
        }
    }
}
