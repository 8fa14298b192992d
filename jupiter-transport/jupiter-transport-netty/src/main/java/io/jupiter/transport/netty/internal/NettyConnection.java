package io.jupiter.transport.netty.internal;

import io.jupiter.transport.Connection;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.WriteBatching;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import io.netty.channel.unix.DomainSocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The {@link Connection} of one Netty {@link Channel}; exactly one per channel, kept in a channel attribute
 * ({@link #of(Channel)}).
 *
 * <p>Writes are cheap from any thread and their flushes are batched. On the channel's event loop the frame is
 * written at once and a flush requested; the {@link FlushConsolidation} at the head of the pipeline turns the
 * flushes of one read batch (or of one run of the loop) into a single system call. From any other thread the frame
 * goes to the channel's {@link OutboundQueue}. Either way {@link OverloadGuard} closes a connection whose peer does
 * not read. A frame that cannot be written is released.
 */
public final class NettyConnection implements Connection {

    private static final AttributeKey<NettyConnection> KEY =
            AttributeKey.valueOf(NettyConnection.class, "connection");
    private static final AttributeKey<TransportConfig> CONFIG =
            AttributeKey.valueOf(NettyConnection.class, "config");
    private static final AttributeKey<Boolean> ACCEPTED =
            AttributeKey.valueOf(NettyConnection.class, "accepted");
    private static final AtomicIntegerFieldUpdater<NettyConnection> CLOSE_REPORTED =
            AtomicIntegerFieldUpdater.newUpdater(NettyConnection.class, "closeReported");

    private final Channel channel;
    private final EventLoop eventLoop;
    private final int maxBodySize;
    private final boolean batching;
    private final FlushHolding holding;
    private final OutboundQueue queue;
    private final OverloadGuard guard;
    /** Event loop only: whether {@code disconnected} was already reported. */
    private boolean disconnected;
    /** 1 once a close of this connection was reported (a connection closed logs once, whoever closes it). */
    private volatile int closeReported;
    /** Whether another protocol took the connection over ({@link #takenOver}): one frame a write from then on. */
    private volatile boolean takenOver;
    /** The channel's addresses as the API shows them; computed on first use (racy but idempotent). */
    private SocketAddress remoteAddress;
    private SocketAddress localAddress;

    private NettyConnection(Channel channel) {
        this.channel = channel;
        this.eventLoop = channel.eventLoop();
        TransportConfig config = channel.attr(CONFIG).get();
        if (config == null) {
            config = TransportConfig.defaults();
        }
        this.maxBodySize = config.maxBodySize();
        this.batching = config.writeBatching() != WriteBatching.DISABLE;
        this.holding = new FlushHolding(config.writeBatching(), Boolean.TRUE.equals(channel.attr(ACCEPTED).get()),
                config.batchDelayMicros());
        this.queue = new OutboundQueue(channel, holding, config.maxPendingWriteBytes());
        this.guard = queue.guard();
    }

    /**
     * Gives the connection of {@code channel} its limits; call before the connection is first used.
     *
     * @param accepted whether a server accepted the channel (rather than a client opening it)
     */
    public static void configure(Channel channel, TransportConfig config, boolean accepted) {
        channel.attr(CONFIG).set(config);
        channel.attr(ACCEPTED).set(accepted);
    }

    /** The connection of {@code channel}, created on first use. */
    public static NettyConnection of(Channel channel) {
        Attribute<NettyConnection> attribute = channel.attr(KEY);
        NettyConnection connection = attribute.get();
        if (connection == null) {
            NettyConnection created = new NettyConnection(channel);
            connection = attribute.setIfAbsent(created);
            if (connection == null) {
                connection = created;
            }
        }
        return connection;
    }

    /** The underlying channel. */
    public Channel channel() {
        return channel;
    }

    @Override
    public SocketAddress remoteAddress() {
        SocketAddress address = remoteAddress;
        if (address == null) {
            address = apiAddress(channel.remoteAddress());
            remoteAddress = address;
        }
        return address;
    }

    @Override
    public SocketAddress localAddress() {
        SocketAddress address = localAddress;
        if (address == null) {
            address = apiAddress(channel.localAddress());
            localAddress = address;
        }
        return address;
    }

    private SocketAddress apiAddress(SocketAddress nettyAddress) {
        if (nettyAddress == null && channel instanceof DomainSocketChannel) {
            return UnixDomainSocketAddress.of(""); // the unnamed end of a Unix domain socket
        }
        return Transports.fromNetty(nettyAddress);
    }

    @Override
    public boolean isActive() {
        return channel.isActive();
    }

    @Override
    public boolean isWritable() {
        return channel.isWritable();
    }

    @Override
    public int maxBodySize() {
        return maxBodySize;
    }

    @Override
    public ByteBufAllocator alloc() {
        return channel.alloc();
    }

    @Override
    public void write(ByteBuf frame) {
        if (!channel.isOpen()) {
            frame.release();
            return;
        }
        if (eventLoop.inEventLoop()) {
            if (!guard.refuseIfOverloaded(frame)) {
                channel.write(frame, channel.voidPromise());
                channel.flush();
            }
        } else if (batching) {
            queue.add(frame);
        } else if (!guard.refuseIfOverloaded(frame)) {
            channel.writeAndFlush(frame, channel.voidPromise());
        }
    }

    @Override
    public void writeAndClose(ByteBuf frame) {
        if (!channel.isOpen()) {
            frame.release();
            return;
        }
        if (eventLoop.inEventLoop()) {
            channel.writeAndFlush(frame).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        queue.addAndClose(frame);
    }

    @Override
    public void close() {
        channel.close();
    }

    @Override
    public Executor ioExecutor() {
        return eventLoop;
    }

    @Override
    public List<X509Certificate> peerCertificates() {
        SslHandler tls = channel.pipeline().get(SslHandler.class);
        if (tls == null) {
            return List.of();
        }
        try {
            List<X509Certificate> chain = new ArrayList<>();
            for (Certificate certificate : tls.engine().getSession().getPeerCertificates()) {
                if (certificate instanceof X509Certificate x509) {
                    chain.add(x509);
                }
            }
            return List.copyOf(chain);
        } catch (SSLPeerUnverifiedException e) {
            return List.of(); // no handshake yet, or the peer presented no certificate
        }
    }

    @Override
    public boolean takesFrameRuns() {
        return !takenOver;
    }

    /** Another protocol took the connection over (its handlers turn each frame written into a message of theirs). */
    void takenOver() {
        takenOver = true;
    }

    /** Event loop only: returns {@code true} the first time it is called, so that disconnection is told once. */
    boolean markDisconnected() {
        if (disconnected) {
            return false;
        }
        disconnected = true;
        return true;
    }

    /** Returns {@code true} the first time it is called (from any thread), so that a close is reported once. */
    boolean firstCloseReport() {
        return CLOSE_REPORTED.compareAndSet(this, 0, 1);
    }

    /** Whether drains may hold their flush under load on this connection (for tests). */
    boolean holdsFlushUnderLoad() {
        return holding.mayHold();
    }

    @Override
    public String toString() {
        return "NettyConnection" + channel;
    }
}
