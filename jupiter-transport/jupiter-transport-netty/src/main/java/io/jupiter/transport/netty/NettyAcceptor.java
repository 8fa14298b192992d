package io.jupiter.transport.netty;

import io.jupiter.common.Requires;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.InProcessAddress;
import io.jupiter.transport.PeerIncidents;
import io.jupiter.transport.TransportAddresses;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportException;
import io.jupiter.transport.netty.internal.FrameDispatcher;
import io.jupiter.transport.netty.internal.InProcessLoops;
import io.jupiter.transport.netty.internal.ServerChannelInitializer;
import io.jupiter.transport.netty.internal.SocketFiles;
import io.jupiter.transport.netty.internal.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of the Netty transport, on a TCP address, a Unix domain socket or in process (see
 * {@link TransportAddresses}): one boss thread ({@code <threadNamePrefix>-boss-1}) accepts, and
 * {@link TransportConfig#ioThreads()} worker threads ({@code <threadNamePrefix>-worker-N}) serve the connections.
 *
 * <p>Each accepted connection gets this pipeline (see {@link ServerChannelInitializer}):
 *
 * <pre>
 *  socket ──► SslHandler, TlsGate                    only with {@link TransportConfig#tls()}
 *         ──► FlushConsolidation(256)               one syscall per read batch of flushes
 *         ──► IdleStateHandler(readerIdle)          absent when readerIdleMillis is 0
 *         ──► ReaderIdleCloser                      closes a connection silent for readerIdle
 *         ──► FrameDecoder                          header checks before the body is buffered
 *         ──► FrameDispatcher                       FrameHandler callbacks, back-pressure
 * </pre>
 *
 * <p>Socket options: {@code SO_BACKLOG 1024}, {@code SO_REUSEADDR}, and on each connection {@code TCP_NODELAY},
 * {@code SO_KEEPALIVE}, the configured write buffer water marks and the pooled allocator. A Unix domain socket gets
 * the backlog, water marks and allocator; an in-process acceptor the water marks and allocator.
 *
 * <p>An in-process acceptor runs on the event loops all in-process channels of the JVM share (see
 * {@link InProcessLoops}), not on threads of its own.
 *
 * <p>A Unix domain socket needs native epoll; without it {@link #start()} fails naming the cause. A leftover socket
 * file that nothing accepts on is deleted before binding, anything else at the path makes binding fail; the bound
 * file is {@code rw-------} and is deleted on {@link #close()} (see {@link SocketFiles}).
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
    private final SocketAddress bindAddress;
    private final FrameDispatcher dispatcher;
    private final ReloadingSslContext tls;

    // Guarded by this.
    private boolean started;
    private boolean closed;
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private ChannelGroup children;
    private Channel serverChannel;

    private volatile SocketAddress localAddress;

    /**
     * An acceptor that will bind {@code bindAddress} (TCP port 0 picks a free port) and feed {@code handler}.
     *
     * @throws IllegalArgumentException if {@link TransportConfig#tls()} is set but does not load: no key pair, a
     *         file that is not PEM, a key that does not match its certificate; or is set for an address that is
     *         not TCP
     */
    public NettyAcceptor(TransportConfig config, SocketAddress bindAddress, FrameHandler handler) {
        this.config = Requires.notNull(config, "config");
        this.bindAddress = Requires.notNull(bindAddress, "bindAddress");
        Requires.argument(config.tls() == null || TransportAddresses.isTcp(bindAddress),
                "TLS is for TCP only, not " + TransportAddresses.format(bindAddress) + " (a Unix domain socket is"
                        + " guarded by its file permissions, in-process never leaves the JVM): leave tls() unset");
        config.protocols().forEach(protocol -> Requires.argument(protocol instanceof NettyPortProtocol,
                "protocols: " + protocol.name() + " (expected: a " + NettyPortProtocol.class.getSimpleName() + ")"));
        this.dispatcher = new FrameDispatcher(handler);
        this.tls = config.tls() == null ? null : ReloadingSslContext.forServer(config.tls(),
                config.protocols().stream().flatMap(p -> ((NettyPortProtocol) p).applicationProtocols().stream())
                        .distinct().toList());
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException if already started or closed
     */
    @Override
    public synchronized SocketAddress start() {
        if (started || closed) {
            throw new IllegalStateException(closed ? "acceptor is closed" : "acceptor already started");
        }
        Transports transports = Transports.of(config);
        transports.check(bindAddress);
        Path socketFile = socketFile();
        if (socketFile != null) {
            SocketFiles.prepare(socketFile);
        }
        started = true;
        String prefix = config.threadNamePrefix();
        if (inProcess()) {
            boss = InProcessLoops.acquire();
            workers = boss;
        } else {
            boss = transports.newEventLoopGroup(1, prefix, "boss", false);
            workers = transports.newEventLoopGroup(config.ioThreads(), prefix, "worker", false);
        }
        // The group's own executor only notifies close futures; the boss loop is idle enough for that. It stays
        // closed: a connection whose registration was still queued when close() ran is closed as it joins.
        children = new DefaultChannelGroup("accepted@" + bindAddress, boss.next(), true);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(transports.serverChannelClass(bindAddress))
                .option(ChannelOption.ALLOCATOR, transports.allocator())
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(config.writeBufferLowWaterMark(), config.writeBufferHighWaterMark()))
                .childOption(ChannelOption.ALLOCATOR, transports.allocator())
                .childHandler(new ServerChannelInitializer(config, dispatcher, children, tls));
        if (TransportAddresses.isTcp(bindAddress)) {
            bootstrap.option(ChannelOption.SO_BACKLOG, BACKLOG)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.SO_KEEPALIVE, true);
        } else if (socketFile != null) {
            bootstrap.option(ChannelOption.SO_BACKLOG, BACKLOG);
        }
        ChannelFuture bound = bootstrap.bind(Transports.toNetty(bindAddress)).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            Throwable cause = bound.cause();
            shutdownLoops();
            releaseTls();
            String reason = cause.getMessage() != null ? cause.getMessage() : cause.toString();
            throw new TransportException("cannot bind " + TransportAddresses.format(bindAddress) + ": " + reason,
                    cause);
        }
        serverChannel = bound.channel();
        if (socketFile != null) {
            try {
                SocketFiles.restrictToOwner(socketFile);
            } catch (TransportException e) {
                serverChannel.close().awaitUninterruptibly(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                shutdownLoops();
                SocketFiles.deleteIfSocket(socketFile);
                throw e;
            }
        }
        localAddress = Transports.fromNetty(serverChannel.localAddress());
        logger.info("accepting on {} ({}{})", TransportAddresses.format(localAddress), describe(transports),
                tls == null ? "" : ", TLS by " + tls.providerName());
        return localAddress;
    }

    @Override
    public int connectionCount() {
        ChannelGroup accepted = children;
        if (accepted == null) {
            return 0;
        }
        // A closed channel leaves the group from a close listener, a moment after it closed.
        int open = 0;
        for (Channel channel : accepted) {
            if (channel.isOpen()) {
                open++;
            }
        }
        return open;
    }

    private String describe(Transports transports) {
        if (bindAddress instanceof InetSocketAddress) {
            return transports.kind().description();
        }
        return socketFile() != null ? "Unix domain socket, " + transports.kind().description()
                : "in process";
    }

    private boolean inProcess() {
        return bindAddress instanceof InProcessAddress;
    }

    private void shutdownLoops() {
        if (inProcess()) {
            InProcessLoops.release();
        } else {
            Transports.shutdown(boss, workers);
        }
    }

    private Path socketFile() {
        return bindAddress instanceof UnixDomainSocketAddress unix ? unix.getPath() : null;
    }

    @Override
    public PeerIncidents incidents() {
        return dispatcher.incidents();
    }

    @Override
    public SocketAddress localAddress() {
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
            shutdownLoops();
            if (socketFile() != null) {
                SocketFiles.deleteIfSocket(socketFile());
            }
            logger.info("stopped accepting on {}", TransportAddresses.format(localAddress));
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
        return "NettyAcceptor[" + TransportAddresses.format(localAddress != null ? localAddress : bindAddress) + ']';
    }
}
