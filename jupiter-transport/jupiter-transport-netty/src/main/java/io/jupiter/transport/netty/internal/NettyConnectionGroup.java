package io.jupiter.transport.netty.internal;

import io.jupiter.common.Requires;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportException;
import io.jupiter.transport.netty.ReloadingSslContext;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.SocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections a {@code NettyConnector} keeps to one address.
 *
 * <p>The group has a fixed number of <em>slots</em>; each slot owns at most one channel at a time, so the group never
 * holds more channels than it was asked for. A slot whose channel closes, or whose connect attempt fails, connects
 * again after {@code min(max, initial * 2^attempt)} milliseconds, scaled by a random factor in [0.5, 1.5) so that
 * many clients losing the same server do not come back in step; {@code attempt} starts again at 0 once a connection
 * is up.
 *
 * <p>Once a connection to the address has had a pong ({@link PeerPings}), every new connection counts as active only
 * when its own first pong arrives: a link that accepts connections but forwards nothing (a half-open path, a
 * stalled proxy) never gets calls, and is closed by its keepalive and reconnected with a growing backoff.
 *
 * <p>With TLS a connection counts as active once its handshake has succeeded; a failed handshake is kept as
 * {@link #handshakeFailure()} until a connection succeeds, and the slot reconnects as after any failure.
 *
 * <p>{@link #next()} is the hot path: it reads a volatile array of the active connections (rebuilt, under a lock,
 * only when one comes or goes) and advances an atomic counter; it neither allocates nor locks.
 */
public final class NettyConnectionGroup implements ConnectionGroup {

    private static final Logger logger = LoggerFactory.getLogger(NettyConnectionGroup.class);
    private static final NettyConnection[] NONE = new NettyConnection[0];

    private final SocketAddress address;
    /** {@link #address} as Netty's channels take it. */
    private final SocketAddress nettyAddress;
    private final TransportConfig config;
    private final Slot[] slots;
    private final Consumer<? super NettyConnectionGroup> onClose;
    private final PeerPings peer = new PeerPings();

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition available = lock.newCondition();
    private volatile NettyConnection[] active = NONE;
    private volatile boolean everAvailable;
    private volatile TransportException handshakeFailure;
    private final AtomicInteger cursor = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * A group of {@code connections} connections to {@code address}; nothing happens before {@link #start()}.
     *
     * @param bootstrap configured with the event loop group, the channel class for {@code address} and options, but
     *                  no handler
     * @param tls the connector's TLS context, or {@code null} for plaintext
     * @param onClose told once when the group is closed
     */
    public NettyConnectionGroup(Bootstrap bootstrap, TransportConfig config, FrameDispatcher dispatcher,
                                ReloadingSslContext tls, SocketAddress address, int connections,
                                Consumer<? super NettyConnectionGroup> onClose) {
        Requires.notNull(bootstrap, "bootstrap");
        Requires.notNull(dispatcher, "dispatcher");
        this.config = Requires.notNull(config, "config");
        this.address = Requires.notNull(address, "address");
        this.nettyAddress = Transports.toNetty(address);
        this.onClose = Requires.notNull(onClose, "onClose");
        Requires.positive(connections, "connections");
        this.slots = new Slot[connections];
        for (int i = 0; i < connections; i++) {
            slots[i] = new Slot(bootstrap.clone(), dispatcher, tls, i);
        }
    }

    /** Starts connecting every slot; returns at once. */
    public void start() {
        for (Slot slot : slots) {
            slot.connect();
        }
    }

    @Override
    public SocketAddress address() {
        return address;
    }

    @Override
    public Connection next() {
        NettyConnection[] snapshot = active;
        int n = snapshot.length;
        if (n == 0) {
            return null;
        }
        int start = (cursor.getAndIncrement() & Integer.MAX_VALUE) % n;
        for (int i = 0; i < n; i++) {
            NettyConnection connection = snapshot[(start + i) % n];
            if (connection.isActive()) {
                return connection;
            }
        }
        return null;
    }

    @Override
    public List<Connection> activeConnections() {
        return List.of(active);
    }

    @Override
    public boolean isAvailable() {
        // A connection stays in the array until its channelInactive has run; it is no use once its channel closed.
        for (NettyConnection connection : active) {
            if (connection.isActive()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean everAvailable() {
        return everAvailable;
    }

    @Override
    public TransportException handshakeFailure() {
        return isAvailable() ? null : handshakeFailure;
    }

    @Override
    public boolean awaitAvailable(long timeout, TimeUnit unit) throws InterruptedException {
        if (isAvailable()) {
            return true;
        }
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (!isAvailable()) {
                if (closed.get() || nanos <= 0) {
                    return false;
                }
                nanos = available.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (Slot slot : slots) {
            slot.close();
        }
        lock.lock();
        try {
            available.signalAll();
        } finally {
            lock.unlock();
        }
        onClose.accept(this);
    }

    @Override
    public String toString() {
        return "NettyConnectionGroup[" + address + ", " + active.length + '/' + slots.length + " active]";
    }

    private void added(NettyConnection connection) {
        lock.lock();
        try {
            NettyConnection[] grown = Arrays.copyOf(active, active.length + 1);
            grown[grown.length - 1] = connection;
            active = grown;
            // Only after the connection is visible to next(): whoever sees the flag and finds no connection
            // knows the peer is really down, not still being added.
            everAvailable = true;
            available.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void removed(NettyConnection connection) {
        lock.lock();
        try {
            NettyConnection[] current = active;
            for (int i = 0; i < current.length; i++) {
                if (current[i] == connection) {
                    NettyConnection[] shrunk = new NettyConnection[current.length - 1];
                    System.arraycopy(current, 0, shrunk, 0, i);
                    System.arraycopy(current, i + 1, shrunk, i, shrunk.length - i);
                    active = shrunk;
                    return;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The reconnect delay before attempt number {@code attempt} (0-based): {@code min(max, initial * 2^attempt)}
     * times {@code 0.5 + random}, at least 1 ms.
     *
     * @param random a value in [0, 1)
     */
    static long backoffMillis(long initial, long max, int attempt, double random) {
        int shift = Math.min(attempt, 30);
        long delay = initial > (max >> shift) ? max : Math.min(max, initial << shift);
        return Math.max(1, (long) (delay * (0.5 + random)));
    }

    /**
     * One connection of the group, reconnected whenever it is lost. Also the last handler of its channel's
     * pipeline, which tells it when the channel becomes active or inactive; it is {@code @Sharable} only because it
     * serves the slot's successive channels, never two at once.
     */
    @Sharable
    private final class Slot extends ChannelInboundHandlerAdapter {

        private final Bootstrap bootstrap;
        private final int index;
        // Guarded by this.
        private int attempt;
        private Channel channel;
        private ScheduledFuture<?> reconnect;
        /**
         * The channel that is active but waits for its first pong before it joins the group (successive channels
         * may live on different event loops).
         */
        private volatile Channel awaitingPong;

        Slot(Bootstrap bootstrap, FrameDispatcher dispatcher, ReloadingSslContext tls, int index) {
            this.bootstrap = bootstrap.handler(new ClientChannelInitializer(config, dispatcher, this, tls, address,
                    peer));
            this.index = index;
        }

        void connect() {
            synchronized (this) {
                reconnect = null;
                // A connector closing shuts its event loops down: a connect then could only fail, and Netty 4.2
                // logs an ERROR for the failure it cannot report on a terminated loop.
                if (closed.get() || bootstrap.config().group().isShuttingDown()) {
                    return;
                }
            }
            ChannelFuture future = bootstrap.connect(nettyAddress);
            Channel opened = future.channel();
            synchronized (this) {
                channel = opened;
            }
            if (closed.get()) {
                // close() may have run between the check and now, and missed this channel.
                opened.close();
                return;
            }
            future.addListener(f -> {
                if (!f.isSuccess()) {
                    scheduleReconnect("connect failed: " + f.cause().getMessage());
                }
            });
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            handshakeFailure = null;
            if (peer.answers() && config.keepaliveTimeoutMillis() > 0) {
                // Its keepalive pinged it on activation: it joins when the pong comes, or closes silent.
                awaitingPong = ctx.channel();
            } else {
                join(ctx);
            }
            ctx.fireChannelActive();
        }

        private void join(ChannelHandlerContext ctx) {
            synchronized (this) {
                attempt = 0;
            }
            added(NettyConnection.of(ctx.channel()));
            if (closed.get()) {
                ctx.close();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt == FrameDecoder.PONG) {
                peer.answered();
                if (awaitingPong == ctx.channel()) {
                    awaitingPong = null;
                    join(ctx);
                }
                return;
            }
            if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
                handshakeFailure = new TransportException("no TLS connection to " + address + ": "
                        + TlsGate.describe(done.cause()), done.cause());
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (awaitingPong == ctx.channel()) {
                awaitingPong = null;
            }
            removed(NettyConnection.of(ctx.channel()));
            TransportException failed = handshakeFailure;
            scheduleReconnect(failed != null && !isAvailable() ? failed.getMessage() : "connection closed");
            ctx.fireChannelInactive();
        }

        /** Schedules the next connect of this slot, unless the group is closed; logs one line with the delay. */
        private void scheduleReconnect(String reason) {
            synchronized (this) {
                if (closed.get() || reconnect != null) {
                    return;
                }
                long delay = backoffMillis(config.reconnectInitialDelayMillis(), config.reconnectMaxDelayMillis(),
                        attempt, ThreadLocalRandom.current().nextDouble());
                attempt++;
                logger.info("reconnecting to {} (slot {}) in {} ms, attempt {} ({})", address, index, delay, attempt,
                        reason);
                try {
                    reconnect = bootstrap.config().group().schedule(this::connect, delay, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    // The connector is shutting down: there is nothing to reconnect with.
                    logger.debug("not reconnecting to {}: the IO threads are shutting down", address);
                }
            }
        }

        void close() {
            Channel toClose;
            synchronized (this) {
                if (reconnect != null) {
                    reconnect.cancel(false);
                    reconnect = null;
                }
                toClose = channel;
            }
            if (toClose != null) {
                toClose.close();
            }
        }
    }
}
