package io.jupiter.transport.netty.internal;

import io.jupiter.transport.Frames;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@link Frames#heartbeat} on a client connection that wrote nothing for the writer idle time.
 *
 * <p>Netty's {@code IdleStateHandler} times writes by their completion, so it turns every write's void promise into a
 * real one and adds a listener to it: two objects and a notification per call. This handler only notes that a write
 * was handed to the socket (a field store, not even a clock read) and looks every half idle period: a look that finds
 * no write since the one before sends a heartbeat, so one goes out between half the idle time and the idle time
 * after the last write, never later. A heartbeat counts as a write, so an idle connection sends one per idle time.
 */
final class WriterIdleHeartbeat extends ChannelDuplexHandler implements Runnable {

    private static final Logger logger = LoggerFactory.getLogger(WriterIdleHeartbeat.class);
    private final long checkNanos;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> check;
    /** Whether anything was written since the last look; event loop only. */
    private boolean wrote;

    WriterIdleHeartbeat(long writerIdleMillis) {
        this.checkNanos = Math.max(1, TimeUnit.MILLISECONDS.toNanos(writerIdleMillis) / 2);
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
        start();
        super.channelActive(ctx);
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

    /** One look, on the event loop. */
    @Override
    public void run() {
        check = null;
        if (!ctx.channel().isActive()) {
            return;
        }
        if (wrote) {
            wrote = false;
        } else {
            if (logger.isTraceEnabled()) {
                logger.trace("heartbeat to {}", ctx.channel());
            }
            ctx.writeAndFlush(Frames.heartbeat(ctx.alloc()), ctx.voidPromise());
            wrote = true; // written past this handler, so noted here
        }
        schedule();
    }

    private void start() {
        if (check == null) {
            wrote = true;
            schedule();
        }
    }

    private void schedule() {
        check = ctx.executor().schedule(this, checkNanos, TimeUnit.NANOSECONDS);
    }

    private void cancel() {
        ScheduledFuture<?> pending = check;
        if (pending != null) {
            check = null;
            pending.cancel(false);
        }
    }
}
