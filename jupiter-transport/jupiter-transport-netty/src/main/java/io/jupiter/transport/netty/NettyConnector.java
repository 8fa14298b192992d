package io.jupiter.transport.netty;

import io.jupiter.common.Requires;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.netty.internal.FrameDispatcher;
import io.jupiter.transport.netty.internal.NettyConnectionGroup;
import io.jupiter.transport.netty.internal.Transports;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import java.net.InetSocketAddress;
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
 *  socket ──► [SslHandler ──► TlsGate, with TLS] ──► FlushConsolidationHandler ──► WriterIdleHeartbeat
 *         ──► FrameDecoder ──► FrameDispatcher ──► group slot (reconnect)
 * </pre>
 *
 * <p>With {@link TransportConfig#tls()} every connection speaks TLS and counts as connected once its handshake has
 * succeeded; the server's certificate must chain to the trust file and, unless turned off, name the host connected
 * to. A failed handshake is reported by {@link ConnectionGroup#handshakeFailure()}.
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
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final Set<NettyConnectionGroup> groups = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ReloadingSslContext tls;

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
        Transports transports = Transports.of(config);
        this.group = transports.newEventLoopGroup(config.ioThreads(), config.threadNamePrefix(), "connector", true);
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(transports.channelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMillis())
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(config.writeBufferLowWaterMark(), config.writeBufferHighWaterMark()))
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT);
        logger.debug("connector using {}", transports.isEpoll() ? "native epoll" : "NIO");
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException if the connector is closed
     */
    @Override
    public ConnectionGroup connect(InetSocketAddress address, int connections) {
        Requires.notNull(address, "address");
        Requires.positive(connections, "connections");
        if (closed.get()) {
            throw new IllegalStateException("connector is closed");
        }
        NettyConnectionGroup connectionGroup = new NettyConnectionGroup(bootstrap, config, dispatcher, tls, address,
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
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (NettyConnectionGroup connectionGroup : groups) {
            connectionGroup.close();
        }
        Transports.shutdown(group);
        if (tls != null) {
            tls.close();
        }
    }
}
