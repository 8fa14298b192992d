package io.jupiter.testkit;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 (an ephemeral port) that forwards to a target and injects network faults, switched at run
 * time, for tests and the chaos scenario: the real sockets of a client and a server with a bad network between them.
 *
 * <p>Faults:
 * <ul>
 *   <li>{@link #blackhole(Direction)}: connections stay open and nothing is forwarded in that direction, not even a
 *       close: a half-open link (a dead NAT entry, a frozen host, a pulled cable). The proxy stops reading that side,
 *       so the bytes wait in the sender's socket buffers as unacknowledged data would, and flow again, in order, when
 *       the direction is {@link #healthy() healthy} again; {@link #blackholeOneOpenConnection()} does it to one
 *       connection only, both ways, while the others and new ones are served as the other faults say (one dead path
 *       to a peer that still answers on its other connections);</li>
 *   <li>{@link #delay(Direction, Duration)}: every chunk is forwarded that much later, in order;</li>
 *   <li>{@link #reset()}: every open connection is reset (RST to the client and to the target), and so is every new
 *       one until {@link #healthy()}; {@link #resetOpenConnections()} resets only those open now;</li>
 *   <li>{@link #refuse()}: the listening socket is closed, so new connections are refused (open ones stay) until
 *       {@link #healthy()} binds the same port again (the kernel closes the socket a moment after this returns: a
 *       connection that slips in meanwhile is reset at once).</li>
 * </ul>
 * {@link #healthy()} ends every fault. Blackhole and delay are per {@link Direction}; both directions when none is
 * given. {@link #close()} closes everything the proxy opened: its listening socket, every connection, its threads.
 */
public final class FaultProxy implements AutoCloseable {

    /** The way bytes travel through the proxy. */
    public enum Direction {
        /** From the client (who connected to the proxy) to the target. */
        CLIENT_TO_TARGET,
        /** From the target back to the client. */
        TARGET_TO_CLIENT
    }

    private final InetSocketAddress target;
    private final EventLoopGroup loops;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong forwardedUp = new AtomicLong();
    private final AtomicLong forwardedDown = new AtomicLong();
    private final int port;
    private final Object bindLock = new Object();
    private Channel listener;
    private volatile boolean blackholeUp;
    private volatile boolean blackholeDown;
    private volatile long delayUpNanos;
    private volatile long delayDownNanos;
    private volatile boolean resetting;
    private volatile boolean refusing;
    private volatile boolean closed;

    private FaultProxy(InetSocketAddress target) {
        this.target = target;
        this.loops = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("fault-proxy", true),
                NioIoHandler.newFactory());
        try {
            this.listener = bind(0);
        } catch (RuntimeException e) {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            throw e;
        }
        this.port = ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** Starts a healthy proxy on 127.0.0.1 and an ephemeral port, forwarding to {@code target}. */
    public static FaultProxy start(InetSocketAddress target) {
        Objects.requireNonNull(target, "target");
        return new FaultProxy(target);
    }

    /** Starts a healthy proxy forwarding to 127.0.0.1:{@code targetPort}. */
    public static FaultProxy start(int targetPort) {
        return start(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
    }

    /** The address clients connect to: 127.0.0.1 and the proxy's port (the same for its whole life). */
    public InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    /** The proxy's port. */
    public int port() {
        return port;
    }

    /** The address forwarded to. */
    public InetSocketAddress target() {
        return target;
    }

    /** Connections accepted since the start (including those reset at once). */
    public long acceptedConnections() {
        return accepted.get();
    }

    /** Client connections open now. */
    public int openConnections() {
        return (int) links.stream().filter(link -> link.client.isOpen()).count();
    }

    /** Bytes forwarded in {@code direction} since the start. */
    public long forwardedBytes(Direction direction) {
        return (direction == Direction.CLIENT_TO_TARGET ? forwardedUp : forwardedDown).get();
    }

    /** Ends every fault: forwards both ways without delay, accepts connections again. */
    public synchronized FaultProxy healthy() {
        resetting = false;
        refusing = false;
        delayUpNanos = 0;
        delayDownNanos = 0;
        blackholeUp = false;
        blackholeDown = false;
        synchronized (bindLock) {
            if (!closed && listener == null) {
                listener = bind(port);
            }
        }
        links.forEach(link -> link.blackholed = false);
        links.forEach(Link::resume);
        return this;
    }

    /** A half-open link both ways: nothing forwarded, nothing closed. */
    public FaultProxy blackhole() {
        return blackhole(Direction.CLIENT_TO_TARGET).blackhole(Direction.TARGET_TO_CLIENT);
    }

    /** Forwards nothing in {@code direction} (other faults stay as they are). */
    public synchronized FaultProxy blackhole(Direction direction) {
        if (direction == Direction.CLIENT_TO_TARGET) {
            blackholeUp = true;
        } else {
            blackholeDown = true;
        }
        return this;
    }

    /**
     * A half-open link both ways on one connection open now (the one accepted first), until {@link #healthy()}; the
     * other connections, and new ones, are served as the other faults say.
     *
     * @return the client-side port of the connection blackholed
     * @throws IllegalStateException if no connection is open
     */
    public synchronized int blackholeOneOpenConnection() {
        Link oldest = links.stream().filter(link -> link.client.isActive() && link.up != null)
                .min((a, b) -> Long.compare(a.number, b.number))
                .orElseThrow(() -> new IllegalStateException("no connection is open through the proxy"));
        oldest.blackholed = true;
        return ((InetSocketAddress) oldest.client.remoteAddress()).getPort();
    }

    /** Adds {@code delay} to both directions. */
    public FaultProxy delay(Duration delay) {
        return delay(Direction.CLIENT_TO_TARGET, delay).delay(Direction.TARGET_TO_CLIENT, delay);
    }

    /** Forwards every chunk in {@code direction} {@code delay} later ({@link Duration#ZERO}: no delay). */
    public synchronized FaultProxy delay(Direction direction, Duration delay) {
        long nanos = delay.toNanos();
        if (nanos < 0) {
            throw new IllegalArgumentException("delay: " + delay + " (expected: 0 or more)");
        }
        if (direction == Direction.CLIENT_TO_TARGET) {
            delayUpNanos = nanos;
        } else {
            delayDownNanos = nanos;
        }
        links.forEach(Link::resume);
        return this;
    }

    /** Resets every open connection and every new one until {@link #healthy()}. */
    public synchronized FaultProxy reset() {
        resetting = true;
        resetOpenConnections();
        return this;
    }

    /** Resets (RST, both sides) the connections open now; new ones are served as the other faults say. */
    public FaultProxy resetOpenConnections() {
        links.forEach(Link::reset);
        return this;
    }

    /** Closes the listening socket: new connections are refused until {@link #healthy()}; open ones stay. */
    public FaultProxy refuse() {
        refusing = true;
        synchronized (bindLock) {
            if (listener != null) {
                listener.close().syncUninterruptibly();
                listener = null;
            }
        }
        return this;
    }

    /** Closes the listening socket, every connection (both sides) and the proxy's threads; waits for them. */
    @Override
    public void close() {
        synchronized (bindLock) {
            closed = true;
            if (listener != null) {
                listener.close().syncUninterruptibly();
                listener = null;
            }
        }
        links.forEach(Link::close);
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private Channel bind(int bindPort) {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loops)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel client) {
                        accept(client);
                    }
                });
        return bootstrap.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), bindPort))
                .syncUninterruptibly().channel();
    }

    private void accept(SocketChannel client) {
        long number = accepted.incrementAndGet();
        if (resetting || refusing || closed) {
            // Refusing: the kernel closes the listening socket a moment after Netty reports it closed; a connection
            // accepted meanwhile is reset, as a refused one would be.
            resetChannel(client);
            return;
        }
        Link link = new Link(client, number);
        links.add(link);
        client.closeFuture().addListener(f -> link.clientClosed());
        new Bootstrap()
                .group(client.eventLoop())
                .channel(NioSocketChannel.class)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
                .handler(new ChannelInboundHandlerAdapter())
                .connect(target)
                .addListener((ChannelFutureListener) connected -> link.targetConnected(connected));
    }

    private static void resetChannel(Channel channel) {
        lingerZero(channel);
        channel.close();
    }

    /** A close after this sends RST instead of FIN. */
    private static void lingerZero(Channel channel) {
        if (channel.isOpen()) {
            channel.config().setOption(ChannelOption.SO_LINGER, 0);
        }
    }

    /** One client connection and its connection to the target; all its state lives on the client's event loop. */
    private final class Link {

        private final Channel client;
        /** Order of acceptance. */
        private final long number;
        /** A blackhole of this connection only, both ways. */
        private volatile boolean blackholed;
        private Channel server;
        private Pipe up;
        private Pipe down;

        Link(Channel client, long number) {
            this.client = client;
            this.number = number;
        }

        void targetConnected(ChannelFuture connected) {
            if (!connected.isSuccess() || !client.isActive() || resetting || closed) {
                if (connected.isSuccess()) {
                    resetChannel(connected.channel());
                }
                resetChannel(client);
                return;
            }
            server = connected.channel();
            up = new Pipe(this, client, server, true);
            down = new Pipe(this, server, client, false);
            up.partner = down;
            down.partner = up;
            server.closeFuture().addListener(f -> {
                down.sourceClosed();
                ended();
            });
            client.pipeline().addLast(up);
            server.pipeline().addLast(down);
            up.requestRead();
            down.requestRead();
        }

        void clientClosed() {
            if (up != null) {
                up.sourceClosed();
            }
            ended();
        }

        void resume() {
            client.eventLoop().execute(() -> {
                if (up != null) {
                    up.drain();
                    down.drain();
                }
            });
        }

        void reset() {
            client.eventLoop().execute(() -> {
                links.remove(this);
                // Both lingers first: closing one side closes the other through its pipe.
                lingerZero(client);
                if (server != null) {
                    lingerZero(server);
                    server.close();
                }
                client.close();
            });
        }

        void close() {
            client.eventLoop().execute(() -> {
                links.remove(this);
                if (server != null) {
                    server.close();
                }
                client.close();
            });
        }

        /** Both sides closed: the link is gone. */
        void ended() {
            if (!client.isOpen() && (server == null || !server.isOpen())) {
                links.remove(this);
            }
        }
    }

    /**
     * Bytes read from one channel, forwarded to the other: queued in order with the time each may leave, drained as
     * the fault of its direction allows. Reads are requested one at a time, only while the destination is writable
     * and the direction is not blackholed, so memory is bounded by one read beyond what a delay holds.
     */
    private final class Pipe extends ChannelInboundHandlerAdapter {

        private final Link link;
        private final Channel source;
        private final Channel destination;
        private final boolean clientToTarget;
        /** The pipe of the other direction, whose source is this one's destination. */
        private Pipe partner;
        private final ArrayDeque<Object[]> queue = new ArrayDeque<>();
        private long lastDueNanos;
        private boolean drainScheduled;
        private boolean sourceClosed;

        Pipe(Link link, Channel source, Channel destination, boolean clientToTarget) {
            this.link = link;
            this.source = source;
            this.destination = destination;
            this.clientToTarget = clientToTarget;
        }

        private boolean blackholed() {
            return link.blackholed || (clientToTarget ? blackholeUp : blackholeDown);
        }

        private long delayNanos() {
            return clientToTarget ? delayUpNanos : delayDownNanos;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            long due = Math.max(System.nanoTime() + delayNanos(), lastDueNanos);
            lastDueNanos = due;
            queue.add(new Object[] {msg, due});
            drain();
            requestRead();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            // This pipe's source is the partner's destination: it may read again.
            partner.requestRead();
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A reset peer: the close that follows ends the link.
            ctx.close();
        }

        void requestRead() {
            if (!blackholed() && source.isActive() && destination.isWritable() && queue.size() < 64) {
                source.read();
            }
        }

        void sourceClosed() {
            sourceClosed = true;
            drain();
        }

        /** Forwards what is due, unless blackholed; on the event loop. */
        void drain() {
            if (blackholed()) {
                return;
            }
            long now = System.nanoTime();
            boolean wrote = false;
            while (!queue.isEmpty()) {
                Object[] head = queue.peek();
                long due = (long) head[1];
                if (due - now > 0) {
                    scheduleDrain(due - now);
                    break;
                }
                queue.poll();
                if (destination.isActive()) {
                    if (head[0] instanceof ByteBuf bytes) {
                        (clientToTarget ? forwardedUp : forwardedDown).addAndGet(bytes.readableBytes());
                    }
                    destination.write(head[0]);
                    wrote = true;
                } else {
                    ReferenceCountUtil.release(head[0]);
                }
            }
            if (wrote) {
                destination.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> requestRead());
            }
            if (queue.isEmpty() && sourceClosed) {
                destination.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            } else if (!wrote) {
                requestRead();
            }
        }

        private void scheduleDrain(long inNanos) {
            if (!drainScheduled) {
                drainScheduled = true;
                source.eventLoop().schedule(() -> {
                    drainScheduled = false;
                    drain();
                }, inNanos, TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            releaseQueue();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!destination.isActive()) {
                releaseQueue();
            }
            ctx.fireChannelInactive();
        }

        private void releaseQueue() {
            Object[] entry;
            while ((entry = queue.poll()) != null) {
                ReferenceCountUtil.release(entry[0]);
            }
        }
    }

    @Override
    public String toString() {
        return "FaultProxy[127.0.0.1:" + port + " -> " + target + "]";
    }
}
