package io.jupiter.transport.netty.internal;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A handler that looks at its connection every period, on the event loop, from the time the connection is active
 * until it closes or the handler is removed. It notes each write handed past it (a field store: no clock read, no
 * promise or listener per write), so that a look can tell whether anything was written since the one before.
 * Subclasses say what a look does ({@link #look}).
 *
 * @see WriterIdleHeartbeat
 * @see ConnectionKeepalive
 */
abstract class PeriodicChannelCheck extends ChannelDuplexHandler implements Runnable {

    private final long periodNanos;
    private ScheduledFuture<?> next;
    ChannelHandlerContext ctx;
    /** Whether anything was written past this handler since the last look; event loop only. */
    boolean wrote;

    PeriodicChannelCheck(long periodNanos) {
        this.periodNanos = Math.max(1, periodNanos);
    }

    /** The period between two looks. */
    final long periodNanos() {
        return periodNanos;
    }

    /**
     * One look at the active connection, on the event loop.
     *
     * @return whether to look again after another period ({@code false} once the look closed the connection)
     */
    abstract boolean look();

    /** Called on the event loop as the looks start. */
    void starting() {
    }

    /** Called once the connection is active and the handlers behind have seen it, before the looks start. */
    void activated() {
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        super.channelActive(ctx);
        activated();
        start();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancel();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        wrote = true;
        ctx.write(msg, promise);
    }

    @Override
    public final void run() {
        next = null;
        if (!ctx.channel().isActive()) {
            return;
        }
        if (look()) {
            schedule();
        }
    }

    private void start() {
        if (next == null) {
            starting();
            schedule();
        }
    }

    private void schedule() {
        next = ctx.executor().schedule(this, periodNanos, TimeUnit.NANOSECONDS);
    }

    private void cancel() {
        ScheduledFuture<?> pending = next;
        if (pending != null) {
            next = null;
            pending.cancel(false);
        }
    }
}
