package io.jupiter.transport.netty.internal;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Turns the flushes of a channel into fewer system calls: what Netty's
 * {@code FlushConsolidationHandler(flushAfter, true)} does, without making an object for every flush it puts off.
 * A flush during a read batch waits for the batch's end; a flush outside one waits for a task put on the event loop
 * (other writes queued meanwhile go out with it); every {@code flushAfter} flushes one goes through at once, and so
 * do the flushes pending when the read batch ends, an exception arrives, the channel is closed or disconnected, it
 * turns unwritable, or this handler is removed.
 *
 * <p>Netty's handler submits its task ({@code submit}: a {@code PromiseTask} each time, about one per drain of a
 * connection's outbound queue) and cancels it when a flush went through before it ran. This one puts the same
 * {@link Runnable} on the loop ({@code execute}: nothing made) and counts the runs queued instead: only the run
 * queued last may flush, and only if no flush went through since it was queued (as a cancelled task would not run).
 * Everything here runs on the channel's event loop.
 */
final class FlushConsolidation extends ChannelDuplexHandler {

    private final int flushAfter;
    private final Runnable scheduledFlush = this::scheduledFlush;
    private ChannelHandlerContext ctx;
    /** Flushes put off since the last one that went through. */
    private int pending;
    private boolean readInProgress;
    /** Runs of {@link #scheduledFlush} on the loop's queue, not run yet. */
    private int queuedRuns;
    /** Whether the run queued last is still wanted (no flush went through since it was queued). */
    private boolean scheduled;

    FlushConsolidation(int flushAfter) {
        if (flushAfter <= 0) {
            throw new IllegalArgumentException("flushAfter must be positive: " + flushAfter);
        }
        this.flushAfter = flushAfter;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (++pending == flushAfter) {
            flushNow(ctx);
        } else if (!readInProgress && !scheduled) {
            ctx.channel().eventLoop().execute(scheduledFlush); // on the loop: runs only after this returns
            scheduled = true;
            queuedRuns++;
        }
    }

    private void scheduledFlush() {
        if (--queuedRuns > 0 || !scheduled) {
            return; // a run queued later will decide, or a flush went through since this one was queued
        }
        scheduled = false;
        if (pending > 0 && !readInProgress) {
            pending = 0;
            ctx.flush();
        } // else: the read batch's end flushes
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        readInProgress = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        readEndedFlush(ctx);
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        readEndedFlush(ctx);
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) {
        readEndedFlush(ctx);
        ctx.disconnect(promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        readEndedFlush(ctx);
        ctx.close(promise);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            flushPending(ctx); // frees what waits in the outbound buffer as soon as it can
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        flushPending(ctx);
    }

    private void readEndedFlush(ChannelHandlerContext ctx) {
        readInProgress = false;
        flushPending(ctx);
    }

    private void flushPending(ChannelHandlerContext ctx) {
        if (pending > 0) {
            flushNow(ctx);
        }
    }

    private void flushNow(ChannelHandlerContext ctx) {
        scheduled = false;
        pending = 0;
        ctx.flush();
    }
}
