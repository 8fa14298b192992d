package io.jupiter.transport.netty.internal;

import io.jupiter.transport.InProcessAddress;
import io.jupiter.transport.IoTransport;
import io.jupiter.transport.TransportAddresses;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportException;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.DomainSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDomainSocketChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerDomainSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channel implementation to use, decided once per acceptor or connector from
 * {@link TransportConfig#transport()}: {@code AUTO} is native epoll where it loads (and
 * {@link TransportConfig#nativeTransport()} is on), NIO otherwise; {@code NIO}, {@code EPOLL} and {@code IO_URING}
 * are taken as asked, and {@link #of} fails, naming the cause, when the native one does not load. Every kind runs on
 * Netty's {@link MultiThreadIoEventLoopGroup} with the matching {@code IoHandler}.
 *
 * <p>The address decides the channel kind: TCP for an {@link InetSocketAddress}, a Unix domain socket for a
 * {@link UnixDomainSocketAddress} (epoll or io_uring only: {@link #check} says why not on NIO), Netty's local channel
 * for an {@link InProcessAddress} (on the shared {@link InProcessLoops}).
 */
public final class Transports {

    private static final Logger logger = LoggerFactory.getLogger(Transports.class);

    /** Quiet period and timeout of {@link #shutdown}, in seconds. */
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 2;

    /** Whether the fall back of {@code AUTO} to NIO was logged (once per JVM). */
    private static final AtomicBoolean FALLBACK_LOGGED = new AtomicBoolean();

    /** The transports a channel can be on. */
    public enum Kind {
        NIO("NIO"), EPOLL("native epoll"), IO_URING("native io_uring");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        /** For a log line: {@code NIO}, {@code native epoll}, {@code native io_uring}. */
        public String description() {
            return description;
        }
    }

    private final Kind kind;
    /** Why there are no Unix domain sockets (NIO), or {@code null}. */
    private final String noDomainSockets;
    private final ByteBufAllocator allocator;

    private Transports(Kind kind, String noDomainSockets, ByteBufAllocator allocator) {
        this.kind = kind;
        this.noDomainSockets = noDomainSockets;
        this.allocator = allocator;
    }

    /**
     * The transport for {@code config}.
     *
     * @throws TransportException if the configuration names epoll or io_uring and it does not load here
     */
    public static Transports of(TransportConfig config) {
        ByteBufAllocator allocator = switch (config.allocator()) {
            case POOLED -> PooledByteBufAllocator.DEFAULT;
            case ADAPTIVE -> AdaptiveAllocatorHolder.INSTANCE;
        };
        IoTransport asked = config.transport();
        switch (asked) {
            case NIO:
                return new Transports(Kind.NIO, "the transport is NIO (TransportConfig.transport(NIO) or "
                        + "-Djupiter.io.transport=nio)", allocator);
            case EPOLL:
                if (!Epoll.isAvailable()) {
                    throw unavailable(asked, Epoll.unavailabilityCause());
                }
                return new Transports(Kind.EPOLL, null, allocator);
            case IO_URING: {
                Throwable cause = ioUringUnavailabilityCause();
                if (cause != null) {
                    throw unavailable(asked, cause);
                }
                return new Transports(Kind.IO_URING, null, allocator);
            }
            default:
                break;
        }
        if (!config.nativeTransport()) {
            return new Transports(Kind.NIO, "the native transport is turned off (TransportConfig.nativeTransport("
                    + "false) or -Djupiter.io.native=false)", allocator);
        }
        if (Epoll.isAvailable()) {
            return new Transports(Kind.EPOLL, null, allocator);
        }
        if (FALLBACK_LOGGED.compareAndSet(false, true)) {
            logger.info("native epoll unavailable, using NIO: {}", String.valueOf(Epoll.unavailabilityCause()));
        }
        return new Transports(Kind.NIO, "native epoll is unavailable: " + Epoll.unavailabilityCause(), allocator);
    }

    /**
     * Why io_uring does not load here, or {@code null} if it does: Netty's own cause (kernel too old, io_uring
     * disabled or blocked by seccomp, native library missing), or the classes not being on the class path.
     */
    public static Throwable ioUringUnavailabilityCause() {
        try {
            return IoUring.isAvailable() ? null : IoUring.unavailabilityCause();
        } catch (LinkageError e) {
            return new IllegalStateException("io.netty:netty-transport-classes-io_uring is not on the class path",
                    e);
        }
    }

    private static TransportException unavailable(IoTransport asked, Throwable cause) {
        return new TransportException("transport " + asked.settingName() + " was asked for (TransportConfig.transport"
                + " or -Djupiter.io.transport) but does not load here: " + cause
                + "; use auto (native epoll where it loads, else NIO) or nio", cause);
    }

    /**
     * Checks that this transport can serve or reach {@code address}.
     *
     * @throws TransportException naming the cause if it cannot: a Unix domain socket on NIO
     * @throws IllegalArgumentException if the address is of a kind no transport knows
     */
    public void check(SocketAddress address) {
        if (address instanceof UnixDomainSocketAddress && kind == Kind.NIO) {
            throw new TransportException("Unix domain sockets need native epoll or io_uring (Linux), and "
                    + noDomainSockets + "; cannot use " + TransportAddresses.format(address));
        }
        if (!(address instanceof InetSocketAddress || address instanceof UnixDomainSocketAddress
                || address instanceof InProcessAddress)) {
            throw new IllegalArgumentException("address: " + address + " (expected: an InetSocketAddress, a "
                    + "UnixDomainSocketAddress or an InProcessAddress)");
        }
    }

    /** The transport chosen. */
    public Kind kind() {
        return kind;
    }

    /** The buffer allocator of the channels ({@link TransportConfig#allocator()}). */
    public ByteBufAllocator allocator() {
        return allocator;
    }

    /** An event loop group of {@code threads} threads named {@code prefix-role-N}. */
    public EventLoopGroup newEventLoopGroup(int threads, String prefix, String role, boolean daemon) {
        IoHandlerFactory handlers = switch (kind) {
            case NIO -> NioIoHandler.newFactory();
            case EPOLL -> EpollIoHandler.newFactory();
            case IO_URING -> IoUringIoHandler.newFactory();
        };
        return new MultiThreadIoEventLoopGroup(threads, new IoThreadFactory(prefix, role, daemon), handlers);
    }

    /** The TCP server channel class. */
    public Class<? extends ServerSocketChannel> serverChannelClass() {
        return switch (kind) {
            case NIO -> NioServerSocketChannel.class;
            case EPOLL -> EpollServerSocketChannel.class;
            case IO_URING -> IoUringServerSocketChannel.class;
        };
    }

    /** The TCP client channel class. */
    public Class<? extends SocketChannel> channelClass() {
        return switch (kind) {
            case NIO -> NioSocketChannel.class;
            case EPOLL -> EpollSocketChannel.class;
            case IO_URING -> IoUringSocketChannel.class;
        };
    }

    /** The server channel class for {@code address}; call {@link #check} first. */
    public Class<? extends ServerChannel> serverChannelClass(SocketAddress address) {
        if (address instanceof UnixDomainSocketAddress) {
            return kind == Kind.IO_URING ? IoUringServerDomainSocketChannel.class
                    : EpollServerDomainSocketChannel.class;
        }
        return address instanceof InProcessAddress ? LocalServerChannel.class : serverChannelClass();
    }

    /** The client channel class for {@code address}; call {@link #check} first. */
    public Class<? extends Channel> channelClass(SocketAddress address) {
        if (address instanceof UnixDomainSocketAddress) {
            return kind == Kind.IO_URING ? IoUringDomainSocketChannel.class : EpollDomainSocketChannel.class;
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

    /** Netty 4.2's adaptive allocator, built only when asked for. */
    private static final class AdaptiveAllocatorHolder {
        static final ByteBufAllocator INSTANCE = new AdaptiveByteBufAllocator();
    }
}
