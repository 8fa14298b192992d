package io.jupiter.transport.netty;

import io.jupiter.common.Requires;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportException;
import io.jupiter.transport.netty.internal.FrameDispatcher;
import io.jupiter.transport.netty.internal.ServerChannelInitializer;
import io.jupiter.transport.netty.internal.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of the Netty transport: one boss thread ({@code <threadNamePrefix>-boss-1}) accepts, and
 * {@link TransportConfig#ioThreads()} worker threads ({@code <threadNamePrefix>-worker-N}) serve the connections.
 *
 * <p>Each accepted connection gets this pipeline (see {@link ServerChannelInitializer}):
 *
 * <pre>
 *  socket ──► SslHandler, TlsGate                    only with {@link TransportConfig#tls()}
 *         ──► FlushConsolidationHandler(256, true)  one syscall per read batch of flushes
 *         ──► IdleStateHandler(readerIdle)          absent when readerIdleMillis is 0
 *         ──► ReaderIdleCloser                      closes a connection silent for readerIdle
 *         ──► FrameDecoder                          header checks before the body is buffered
 *         ──► FrameDispatcher                       FrameHandler callbacks, back-pressure
 * </pre>
 *
 * <p>Socket options: {@code SO_BACKLOG 1024}, {@code SO_REUSEADDR}, and on each connection {@code TCP_NODELAY},
 * {@code SO_KEEPALIVE}, the configured write buffer water marks and the pooled allocator.
 *
 * <p>With {@link TransportConfig#tls()} every connection speaks TLS (1.3 or 1.2) and a peer that does not is closed
 * at once; the certificate files are read when the acceptor is created (so a bad file fails here, with a message
 * naming it) and again for new connections whenever they change (see {@link ReloadingSslContext}).
 *
 * <p>{@link #close()} closes the listening socket and every connection, then shuts both thread groups down and waits
 * (a few seconds at most) until their threads have ended. It must not be called from an IO thread.
 *
 * @see NettyConnector
 */
public final class NettyAcceptor implements Acceptor {

    private static final Logger logger = LoggerFactory.getLogger(NettyAcceptor.class);

    private static final int BACKLOG = 1024;
    private static final long CLOSE_TIMEOUT_SECONDS = 2;

    private final TransportConfig config;
    private final InetSocketAddress bindAddress;
    private final FrameDispatcher dispatcher;
    private final ReloadingSslContext tls;

    // Guarded by this.
    private boolean started;
    private boolean closed;
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private ChannelGroup children;
    private Channel serverChannel;

    private volatile InetSocketAddress localAddress;

    /**
     * An acceptor that will bind {@code bindAddress} (port 0 picks a free port) and feed {@code handler}.
     *
     * @throws IllegalArgumentException if {@link TransportConfig#tls()} is set but does not load: no key pair, a
     *         file that is not PEM, a key that does not match its certificate
     */
    public NettyAcceptor(TransportConfig config, InetSocketAddress bindAddress, FrameHandler handler) {
        this.config = Requires.notNull(config, "config");
        this.bindAddress = Requires.notNull(bindAddress, "bindAddress");
        this.dispatcher = new FrameDispatcher(handler);
        this.tls = config.tls() == null ? null : ReloadingSslContext.forServer(config.tls());
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException if already started or closed
     */
    @Override
    public synchronized InetSocketAddress start() {
        if (started || closed) {
            throw new IllegalStateException(closed ? "acceptor is closed" : "acceptor already started");
        }
        started = true;
        Transports transports = Transports.of(config);
        String prefix = config.threadNamePrefix();
        boss = transports.newEventLoopGroup(1, prefix, "boss", false);
        workers = transports.newEventLoopGroup(config.ioThreads(), prefix, "worker", false);
        // The group's own executor only notifies close futures; the boss loop is idle enough for that.
        children = new DefaultChannelGroup("accepted@" + bindAddress, boss.next());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(transports.serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, BACKLOG)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(config.writeBufferLowWaterMark(), config.writeBufferHighWaterMark()))
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childHandler(new ServerChannelInitializer(config, dispatcher, children, tls));
        ChannelFuture bound = bootstrap.bind(bindAddress).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            Throwable cause = bound.cause();
            Transports.shutdown(boss, workers);
            releaseTls();
            String reason = cause.getMessage() != null ? cause.getMessage() : cause.toString();
            throw new TransportException("cannot bind " + bindAddress + ": " + reason, cause);
        }
        serverChannel = bound.channel();
        localAddress = (InetSocketAddress) serverChannel.localAddress();
        logger.info("accepting on {} ({}{})", localAddress, transports.isEpoll() ? "native epoll" : "NIO",
                tls == null ? "" : ", TLS by " + tls.providerName());
        return localAddress;
    }

    @Override
    public int connectionCount() {
        ChannelGroup accepted = children;
        return accepted == null ? 0 : accepted.size();
    }

    @Override
    public InetSocketAddress localAddress() {
        return localAddress;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!started) {
            releaseTls();
            return;
        }
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            children.close().awaitUninterruptibly(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Transports.shutdown(boss, workers);
            logger.info("stopped accepting on {}", localAddress);
        }
        releaseTls();
    }

    private void releaseTls() {
        if (tls != null) {
            tls.close();
        }
    }

    @Override
    public String toString() {
        return "NettyAcceptor[" + (localAddress != null ? localAddress : bindAddress) + ']';
    }
}
