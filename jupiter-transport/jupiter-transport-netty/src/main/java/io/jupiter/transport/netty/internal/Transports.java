package io.jupiter.transport.netty.internal;

import io.jupiter.transport.TransportConfig;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channel implementation to use: native epoll when the configuration asks for it and the native library loads,
 * NIO otherwise. Decided once per acceptor or connector.
 */
public final class Transports {

    private static final Logger logger = LoggerFactory.getLogger(Transports.class);

    /** Quiet period and timeout of {@link #shutdown}, in seconds. */
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 2;

    private final boolean epoll;

    private Transports(boolean epoll) {
        this.epoll = epoll;
    }

    /** The transport for {@code config}. */
    public static Transports of(TransportConfig config) {
        boolean epoll = config.nativeTransport() && Epoll.isAvailable();
        if (config.nativeTransport() && !epoll) {
            logger.debug("native epoll unavailable, using NIO: {}", Epoll.unavailabilityCause().toString());
        }
        return new Transports(epoll);
    }

    /** Whether this is native epoll. */
    public boolean isEpoll() {
        return epoll;
    }

    /** An event loop group of {@code threads} threads named {@code prefix-role-N}. */
    public EventLoopGroup newEventLoopGroup(int threads, String prefix, String role, boolean daemon) {
        IoThreadFactory threadFactory = new IoThreadFactory(prefix, role, daemon);
        return epoll ? new EpollEventLoopGroup(threads, threadFactory) : new NioEventLoopGroup(threads, threadFactory);
    }

    /** The server channel class. */
    public Class<? extends ServerSocketChannel> serverChannelClass() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** The client channel class. */
    public Class<? extends SocketChannel> channelClass() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /**
     * Shuts {@code groups} down at once (no quiet period) and waits, bounded, until their threads have ended.
     *
     * @return whether every group terminated in time
     */
    public static boolean shutdown(EventLoopGroup... groups) {
        for (EventLoopGroup group : groups) {
            group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        boolean terminated = true;
        for (EventLoopGroup group : groups) {
            if (!group.terminationFuture().awaitUninterruptibly(SHUTDOWN_TIMEOUT_SECONDS * 2, TimeUnit.SECONDS)) {
                logger.warn("event loop group {} did not terminate within {} s", group, SHUTDOWN_TIMEOUT_SECONDS * 2);
                terminated = false;
            }
        }
        return terminated;
    }
}
