package io.jupiter.transport.netty.internal;

import io.jupiter.transport.InProcessAddress;
import io.jupiter.transport.TransportAddresses;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportException;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.DomainSocketChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channel implementation to use: native epoll when the configuration asks for it and the native library loads,
 * NIO otherwise. Decided once per acceptor or connector.
 *
 * <p>The address decides the channel kind: TCP for an {@link InetSocketAddress}, a Unix domain socket for a
 * {@link UnixDomainSocketAddress} (epoll only: {@link #check} says why not when epoll is off or unavailable), Netty's
 * local channel for an {@link InProcessAddress} (on the same event loops as the others).
 */
public final class Transports {

    private static final Logger logger = LoggerFactory.getLogger(Transports.class);

    /** Quiet period and timeout of {@link #shutdown}, in seconds. */
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 2;

    private final boolean epoll;
    /** Why there is no epoll, or {@code null}. */
    private final String noEpoll;

    private Transports(boolean epoll, String noEpoll) {
        this.epoll = epoll;
        this.noEpoll = noEpoll;
    }

    /** The transport for {@code config}. */
    public static Transports of(TransportConfig config) {
        if (!config.nativeTransport()) {
            return new Transports(false, "the native transport is turned off (TransportConfig.nativeTransport(false)"
                    + " or -Djupiter.io.native=false)");
        }
        if (Epoll.isAvailable()) {
            return new Transports(true, null);
        }
        logger.debug("native epoll unavailable, using NIO: {}", Epoll.unavailabilityCause().toString());
        return new Transports(false, "native epoll is unavailable: " + Epoll.unavailabilityCause());
    }

    /**
     * Checks that this transport can serve or reach {@code address}.
     *
     * @throws TransportException naming the cause if it cannot: a Unix domain socket without epoll
     * @throws IllegalArgumentException if the address is of a kind no transport knows
     */
    public void check(SocketAddress address) {
        if (address instanceof UnixDomainSocketAddress && !epoll) {
            throw new TransportException("Unix domain sockets need native epoll (Linux), and " + noEpoll
                    + "; cannot use " + TransportAddresses.format(address));
        }
        if (!(address instanceof InetSocketAddress || address instanceof UnixDomainSocketAddress
                || address instanceof InProcessAddress)) {
            throw new IllegalArgumentException("address: " + address + " (expected: an InetSocketAddress, a "
                    + "UnixDomainSocketAddress or an InProcessAddress)");
        }
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

    /** The TCP server channel class. */
    public Class<? extends ServerSocketChannel> serverChannelClass() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /** The TCP client channel class. */
    public Class<? extends SocketChannel> channelClass() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** The server channel class for {@code address}; call {@link #check} first. */
    public Class<? extends ServerChannel> serverChannelClass(SocketAddress address) {
        if (address instanceof UnixDomainSocketAddress) {
            return EpollServerDomainSocketChannel.class;
        }
        return address instanceof InProcessAddress ? LocalServerChannel.class : serverChannelClass();
    }

    /** The client channel class for {@code address}; call {@link #check} first. */
    public Class<? extends Channel> channelClass(SocketAddress address) {
        if (address instanceof UnixDomainSocketAddress) {
            return EpollDomainSocketChannel.class;
        }
        return address instanceof InProcessAddress ? LocalChannel.class : channelClass();
    }

    /** {@code address} as Netty's channels take it. */
    public static SocketAddress toNetty(SocketAddress address) {
        if (address instanceof UnixDomainSocketAddress unix) {
            return new DomainSocketAddress(unix.getPath().toString());
        }
        if (address instanceof InProcessAddress inProcess) {
            return new LocalAddress(inProcess.name());
        }
        return address;
    }

    /** A channel's address as the transport API shows it ({@code null} stays {@code null}). */
    public static SocketAddress fromNetty(SocketAddress address) {
        if (address instanceof DomainSocketAddress domain) {
            return UnixDomainSocketAddress.of(domain.path());
        }
        if (address instanceof LocalAddress local) {
            return InProcessAddress.of(local.id());
        }
        return address;
    }

    /**
     * The peer of {@code channel} for a log line: its address, or for the accepted end of a Unix domain socket
     * (whose client has no name) {@code client of unix:PATH}.
     */
    public static String peer(Channel channel) {
        SocketAddress remote = fromNetty(channel.remoteAddress());
        if (remote instanceof UnixDomainSocketAddress unix && !unix.getPath().toString().isEmpty()) {
            return TransportAddresses.format(remote);
        }
        if (channel instanceof DomainSocketChannel) {
            SocketAddress local = fromNetty(channel.localAddress());
            return "client of " + (local == null ? "a Unix domain socket" : TransportAddresses.format(local));
        }
        return remote == null ? "an unconnected channel" : remote.toString();
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
