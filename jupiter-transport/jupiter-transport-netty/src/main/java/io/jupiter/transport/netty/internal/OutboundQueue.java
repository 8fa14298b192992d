package io.jupiter.transport.netty.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * Frames written to one channel by threads other than its event loop: a lock-free multi-producer queue, and a drain
 * task put on the event loop only if none is pending yet (held a little under load, as {@link FlushHolding}
 * decides). The task writes everything queued (at most {@value #MAX_WRITES_PER_DRAIN} frames before it yields the
 * loop), then flushes once.
 */
final class OutboundQueue {

    private static final AtomicIntegerFieldUpdater<OutboundQueue> DRAIN_SCHEDULED =
            AtomicIntegerFieldUpdater.newUpdater(OutboundQueue.class, "drainScheduled");
    private static final AtomicLongFieldUpdater<OutboundQueue> QUEUED_BYTES =
            AtomicLongFieldUpdater.newUpdater(OutboundQueue.class, "queuedBytes");
    /** Writes handled by one drain run before it yields the event loop to other work. */
    private static final int MAX_WRITES_PER_DRAIN = 1024;

    private final Channel channel;
    private final EventLoop eventLoop;
    private final FlushHolding holding;
    private final OverloadGuard guard;
    /** Holds {@link ByteBuf}s, or {@link CloseAfter}s for a frame after which the channel closes. */
    private final Queue<Object> pending = PlatformDependent.newMpscQueue();
    private final Runnable drainTask = this::drain;
    /**
     * Holds the drain from inside the event loop. A delayed task scheduled from another thread on Netty 4.2's epoll
     * loop could wait far past its delay (10,000 client connections written by one thread at once: 51 answered in
     * 60 s), so another thread hands the hold to the loop and the loop schedules it.
     */
    private final Runnable holdTask = this::holdDrain;

    private volatile int drainScheduled;
    /** Bytes of frames queued and not yet handed to the channel. */
    private volatile long queuedBytes;

    OutboundQueue(Channel channel, FlushHolding holding, long maxPendingWriteBytes) {
        this.channel = channel;
        this.eventLoop = channel.eventLoop();
        this.holding = holding;
        this.guard = new OverloadGuard(channel, maxPendingWriteBytes, () -> queuedBytes);
        // Frames still queued when the channel closes can never be written: a drain held for later may never run
        // (an event loop shutting down cancels its scheduled tasks), so they are released here, on the loop.
        channel.closeFuture().addListener(closed -> discard());
    }

    /** The guard of this channel's outbound bytes, for writes made on the event loop. */
    OverloadGuard guard() {
        return guard;
    }

    /** Queues {@code frame}, or refuses it (and closes the connection) if the peer is too far behind. */
    void add(ByteBuf frame) {
        int size = frame.readableBytes();
        if (!guard.admits(QUEUED_BYTES.addAndGet(this, size) + guard.outboundBytes())) {
            QUEUED_BYTES.addAndGet(this, -size);
            guard.refuse(frame);
            return;
        }
        pending.offer(frame);
        scheduleDrain();
    }

    /** Queues {@code frame}; the channel closes once it is written. */
    void addAndClose(ByteBuf frame) {
        pending.offer(new CloseAfter(frame));
        scheduleDrain();
    }

    private void scheduleDrain() {
        if (DRAIN_SCHEDULED.compareAndSet(this, 0, 1)) {
            try {
                if (holding.holdNext()) {
                    if (eventLoop.inEventLoop()) {
                        holdDrain();
                    } else {
                        eventLoop.execute(holdTask);
                    }
                } else {
                    eventLoop.execute(drainTask);
                }
            } catch (RejectedExecutionException e) {
                // The event loop is shutting down: nobody will write these, so release them here.
                drainScheduled = 0;
                discard();
            }
        }
    }

    private void holdDrain() {
        if (eventLoop.isShuttingDown() || !channel.isActive()) {
            drain(); // nothing to batch for, and a held drain could be cancelled with the loop's scheduled tasks
            return;
        }
        eventLoop.schedule(drainTask, holding.delayNanos(), TimeUnit.NANOSECONDS);
    }

    private void drain() {
        int written = 0;
        long dequeuedBytes = 0;
        Object write;
        while (written < MAX_WRITES_PER_DRAIN && (write = pending.poll()) != null) {
            if (write instanceof CloseAfter last) {
                channel.write(last.frame).addListener(ChannelFutureListener.CLOSE);
            } else {
                ByteBuf frame = (ByteBuf) write;
                dequeuedBytes += frame.readableBytes();
                if (!guard.refuseIfOverloaded(frame)) {
                    channel.write(frame, channel.voidPromise());
                }
            }
            written++;
        }
        QUEUED_BYTES.addAndGet(this, -dequeuedBytes);
        channel.flush();
        holding.drained(written);
        drainScheduled = 0;
        // A producer may have queued after our last poll but seen the flag still set: run again for it.
        if (!pending.isEmpty()) {
            scheduleDrain();
        }
    }

    private void discard() {
        Object write;
        while ((write = pending.poll()) != null) {
            (write instanceof CloseAfter last ? last.frame : (ByteBuf) write).release();
        }
    }

    /** A frame after which the channel closes. */
    private record CloseAfter(ByteBuf frame) {
    }
}
