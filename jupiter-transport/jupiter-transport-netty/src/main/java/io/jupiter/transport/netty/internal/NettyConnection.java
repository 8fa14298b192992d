package io.jupiter.transport.netty.internal;

import io.jupiter.transport.Connection;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.WriteBatching;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Connection} of one Netty {@link Channel}; exactly one per channel, kept in a channel attribute
 * ({@link #of(Channel)}).
 *
 * <p>Writes are cheap from any thread and their flushes are batched:
 * <ul>
 * <li>On the channel's event loop the frame is written at once and a flush requested; the
 *     {@code FlushConsolidationHandler} at the head of the pipeline turns the flushes of one read batch (or of one
 *     run of the loop) into a single system call.</li>
 * <li>On any other thread the frame goes into a lock-free multi-producer queue, and a drain task is put on the
 *     event loop only if none is pending yet. The task writes everything queued, then flushes once.</li>
 * </ul>
 * A frame that cannot be written is released by Netty and its listener is told on the IO thread.
 */
public final class NettyConnection implements Connection {

    private static final Logger logger = LoggerFactory.getLogger(NettyConnection.class);

    private static final AttributeKey<NettyConnection> KEY =
            AttributeKey.valueOf(NettyConnection.class, "connection");
    private static final AttributeKey<TransportConfig> CONFIG =
            AttributeKey.valueOf(NettyConnection.class, "config");
    private static final AttributeKey<Boolean> ACCEPTED =
            AttributeKey.valueOf(NettyConnection.class, "accepted");
    private static final AtomicIntegerFieldUpdater<NettyConnection> DRAIN_SCHEDULED =
            AtomicIntegerFieldUpdater.newUpdater(NettyConnection.class, "drainScheduled");
    /** Writes handled by one drain run before it yields the event loop to other work. */
    private static final int MAX_WRITES_PER_DRAIN = 1024;

    private final Channel channel;
    private final EventLoop eventLoop;
    /** Holds {@link ByteBuf}s (no listener) or {@link PendingWrite}s. */
    private final Queue<Object> pending = PlatformDependent.newMpscQueue();
    private final Runnable drainTask = this::drain;

    private volatile int drainScheduled;
    private volatile Object attachment;
    /** Event loop only: whether {@code disconnected} was already reported. */
    private boolean disconnected;

    private static final AtomicLongFieldUpdater<NettyConnection> QUEUED_BYTES =
            AtomicLongFieldUpdater.newUpdater(NettyConnection.class, "queuedBytes");
    private static final AtomicIntegerFieldUpdater<NettyConnection> OVERLOADED =
            AtomicIntegerFieldUpdater.newUpdater(NettyConnection.class, "overloaded");

    private final long maxPendingWriteBytes;
    private final int maxBodySize;
    private final WriteBatching batching;
    /**
     * Whether drains may hold their flush under load: ENABLE, or AUTO on a client connection (see
     * {@link WriteBatching#AUTO}).
     */
    private final boolean mayHold;
    private final long batchDelayNanos;
    /** AUTO: frames per drain, exponentially averaged, times 16 (written by the event loop only). */
    private volatile int framesPerDrainX16 = 16;
    /** Bytes of frames queued by other threads and not yet handed to the channel. */
    private volatile long queuedBytes;
    /** 1 once the connection was closed for not reading. */
    private volatile int overloaded;

    private NettyConnection(Channel channel) {
        this.channel = channel;
        this.eventLoop = channel.eventLoop();
        TransportConfig config = channel.attr(CONFIG).get();
        this.maxPendingWriteBytes = config == null ? Long.MAX_VALUE : config.maxPendingWriteBytes();
        this.maxBodySize = config == null ? TransportConfig.DEFAULT_MAX_BODY_SIZE : config.maxBodySize();
        this.batching = config == null ? WriteBatching.AUTO : config.writeBatching();
        this.mayHold = batching == WriteBatching.ENABLE || (batching == WriteBatching.AUTO
                && !Boolean.TRUE.equals(channel.attr(ACCEPTED).get()));
        this.batchDelayNanos = config == null ? 50_000 : TimeUnit.MICROSECONDS.toNanos(config.batchDelayMicros());
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
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) channel.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
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
    public void write(ByteBuf frame, WriteFailureListener onFailure) {
        if (!channel.isOpen()) {
            frame.release();
            notifyClosed(onFailure);
            return;
        }
        if (eventLoop.inEventLoop()) {
            if (refuseIfOverloaded(frame, onFailure)) {
                return;
            }
            channel.write(frame, promise(onFailure));
            channel.flush();
            return;
        }
        int size = frame.readableBytes();
        if (QUEUED_BYTES.addAndGet(this, size) + outboundBytes() > maxPendingWriteBytes) {
            QUEUED_BYTES.addAndGet(this, -size);
            refuse(frame, onFailure);
            return;
        }
        if (batching == WriteBatching.DISABLE) {
            QUEUED_BYTES.addAndGet(this, -size);
            channel.writeAndFlush(frame, promise(onFailure));
            return;
        }
        enqueue(onFailure == null ? frame : new PendingWrite(frame, onFailure, false));
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
        enqueue(new PendingWrite(frame, null, true));
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
    public void attach(Object attachment) {
        this.attachment = attachment;
    }

    @Override
    public Object attachment() {
        return attachment;
    }

    /** Event loop only: returns {@code true} the first time it is called, so that disconnection is told once. */
    boolean markDisconnected() {
        if (disconnected) {
            return false;
        }
        disconnected = true;
        return true;
    }

    private void enqueue(Object write) {
        pending.offer(write);
        scheduleDrain();
    }

    private void scheduleDrain() {
        if (DRAIN_SCHEDULED.compareAndSet(this, 0, 1)) {
            try {
                if (holdFlush()) {
                    eventLoop.schedule(drainTask, batchDelayNanos, TimeUnit.NANOSECONDS);
                } else {
                    eventLoop.execute(drainTask);
                }
            } catch (RejectedExecutionException e) {
                // The event loop is shutting down: nobody will write these, so release them here.
                drainScheduled = 0;
                discardPending();
            }
        }
    }

    /**
     * Whether the next drain should wait {@code batchDelayNanos} for more frames: always with ENABLE; with AUTO on a
     * client connection once recent drains carried two frames or more on average (a lone caller, one frame a drain,
     * is never delayed). The average is read racily from a producer thread; a stale value only picks the other mode
     * once.
     */
    private boolean holdFlush() {
        return mayHold && (batching == WriteBatching.ENABLE || framesPerDrainX16 >= 2 * 16);
    }

    /** Whether a drain would hold its flush if recent drains carried two frames or more (for tests). */
    boolean holdsFlushUnderLoad() {
        return mayHold;
    }

    private void drain() {
        int written = 0;
        long dequeuedBytes = 0;
        Object write;
        while (written < MAX_WRITES_PER_DRAIN && (write = pending.poll()) != null) {
            if (write instanceof PendingWrite w) {
                if (w.closeAfter) {
                    channel.write(w.frame).addListener(ChannelFutureListener.CLOSE);
                } else {
                    dequeuedBytes += w.frame.readableBytes();
                    if (!refuseIfOverloaded(w.frame, w.onFailure)) {
                        channel.write(w.frame, promise(w.onFailure));
                    }
                }
            } else {
                ByteBuf frame = (ByteBuf) write;
                dequeuedBytes += frame.readableBytes();
                if (!refuseIfOverloaded(frame, null)) {
                    channel.write(frame, channel.voidPromise());
                }
            }
            written++;
        }
        QUEUED_BYTES.addAndGet(this, -dequeuedBytes);
        channel.flush();
        // AUTO: the average number of frames a drain carries says whether callers write concurrently.
        framesPerDrainX16 += written - (framesPerDrainX16 >> 4);
        drainScheduled = 0;
        // A producer may have queued after our last poll but seen the flag still set: run again for it.
        if (!pending.isEmpty()) {
            scheduleDrain();
        }
    }

    /**
     * A peer that does not read makes the outbound buffer grow while responses keep coming (the
     * water marks stop reading new requests, not answering those already taken). Past the limit the connection is
     * closed and the frame dropped, so one stuck peer cannot exhaust the process's memory.
     */
    private boolean refuseIfOverloaded(ByteBuf frame, WriteFailureListener onFailure) {
        if (outboundBytes() + frame.readableBytes() <= maxPendingWriteBytes) {
            return false;
        }
        refuse(frame, onFailure);
        return true;
    }

    /** Bytes in the channel's outbound buffer (readable from any thread: a volatile counter). */
    private long outboundBytes() {
        ChannelOutboundBuffer outbound = channel.unsafe().outboundBuffer();
        return outbound == null ? 0 : outbound.totalPendingWriteBytes();
    }

    private void refuse(ByteBuf frame, WriteFailureListener onFailure) {
        if (OVERLOADED.compareAndSet(this, 0, 1)) {
            logger.warn("closing {}: the peer is not reading ({} bytes waiting to be sent, limit {})",
                    channel.remoteAddress(), outboundBytes() + queuedBytes, maxPendingWriteBytes);
            channel.close();
        }
        frame.release();
        if (onFailure != null) {
            IOException cause = new IOException("connection closed: the peer is not reading");
            if (eventLoop.inEventLoop()) {
                notifyNow(onFailure, cause);
            } else {
                try {
                    eventLoop.execute(() -> notifyNow(onFailure, cause));
                } catch (RejectedExecutionException e) {
                    notifyNow(onFailure, cause);
                }
            }
        }
    }

    private void discardPending() {
        Object write;
        while ((write = pending.poll()) != null) {
            if (write instanceof PendingWrite w) {
                w.frame.release();
                if (w.onFailure != null) {
                    notifyNow(w.onFailure, new ClosedChannelException());
                }
            } else {
                ((ByteBuf) write).release();
            }
        }
    }

    private ChannelPromise promise(WriteFailureListener onFailure) {
        if (onFailure == null) {
            return channel.voidPromise();
        }
        ChannelPromise promise = channel.newPromise();
        promise.addListener(future -> {
            if (!future.isSuccess()) {
                notifyNow(onFailure, future.cause());
            }
        });
        return promise;
    }

    private void notifyClosed(WriteFailureListener onFailure) {
        if (onFailure == null) {
            return;
        }
        ClosedChannelException cause = new ClosedChannelException();
        if (eventLoop.inEventLoop()) {
            notifyNow(onFailure, cause);
            return;
        }
        try {
            eventLoop.execute(() -> notifyNow(onFailure, cause));
        } catch (RejectedExecutionException e) {
            notifyNow(onFailure, cause);
        }
    }

    private void notifyNow(WriteFailureListener onFailure, Throwable cause) {
        try {
            onFailure.writeFailed(cause);
        } catch (Throwable t) {
            logger.warn("write failure listener of {} threw", this, t);
        }
    }

    @Override
    public String toString() {
        return "NettyConnection" + channel;
    }

    /** A queued write that needs more than the frame: a failure listener, or a close once written. */
    private record PendingWrite(ByteBuf frame, WriteFailureListener onFailure, boolean closeAfter) {
    }
}
