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
 * Writes {@link Frames#heartbeat} on a client connection that wrote nothing for about the writer idle time.
 *
 * <p>Netty's {@code IdleStateHandler} times writes by their completion, so it turns every write's void promise into a
 * real one and adds a listener to it: two objects and a notification per call. This handler only notes that a write
 * happened and looks every quarter of the idle time; after {@value #IDLE_CHECKS} looks in a row with no write it
 * sends a heartbeat. So a heartbeat follows the last write after 1 to 1.25 times the idle time (a provider's reader
 * idle time must exceed that: 1.3.1's and ours are twice the consumer's writer idle time).
 */
final class WriterIdleHeartbeat extends ChannelDuplexHandler implements Runnable {

    private static final Logger logger = LoggerFactory.getLogger(WriterIdleHeartbeat.class);
    private static final int IDLE_CHECKS = 4;

    private final long checkNanos;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> check;
    /** Event loop only. */
    private boolean wrote;
    private int idleChecks;

    WriterIdleHeartbeat(long writerIdleMillis) {
        this.checkNanos = Math.max(1, TimeUnit.MILLISECONDS.toNanos(writerIdleMillis) / IDLE_CHECKS);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            schedule();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        schedule();
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
            idleChecks = 0;
        } else if (++idleChecks >= IDLE_CHECKS) {
            idleChecks = 0;
            if (logger.isTraceEnabled()) {
                logger.trace("heartbeat to {}", ctx.channel());
            }
            ctx.writeAndFlush(Frames.heartbeat(ctx.alloc()), ctx.voidPromise());
        }
        schedule();
    }

    private void schedule() {
        if (check == null) {
            check = ctx.executor().schedule(this, checkNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void cancel() {
        ScheduledFuture<?> pending = check;
        if (pending != null) {
            check = null;
            pending.cancel(false);
        }
    }
}
