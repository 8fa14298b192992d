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
 * real one and adds a listener to it: two objects and a notification per call. This handler notes when a write was
 * handed to the socket instead (a clock read), and, like it, looks once per idle period: when the connection has
 * been idle that long it sends a heartbeat, else it looks again when the period since the last write ends.
 */
final class WriterIdleHeartbeat extends ChannelDuplexHandler implements Runnable {

    private static final Logger logger = LoggerFactory.getLogger(WriterIdleHeartbeat.class);
    private final long idleNanos;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> check;
    /** Event loop only. */
    private long lastWriteNanos;

    WriterIdleHeartbeat(long writerIdleMillis) {
        this.idleNanos = TimeUnit.MILLISECONDS.toNanos(writerIdleMillis);
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
        lastWriteNanos = System.nanoTime();
        ctx.write(msg, promise);
    }

    /** One look, on the event loop. */
    @Override
    public void run() {
        check = null;
        if (!ctx.channel().isActive()) {
            return;
        }
        long now = System.nanoTime();
        long idle = now - lastWriteNanos;
        if (idle < idleNanos) {
            schedule(idleNanos - idle);
            return;
        }
        if (logger.isTraceEnabled()) {
            logger.trace("heartbeat to {}", ctx.channel());
        }
        lastWriteNanos = now;
        ctx.writeAndFlush(Frames.heartbeat(ctx.alloc()), ctx.voidPromise());
        schedule(idleNanos);
    }

    private void start() {
        if (check == null) {
            lastWriteNanos = System.nanoTime();
            schedule(idleNanos);
        }
    }

    private void schedule(long delayNanos) {
        check = ctx.executor().schedule(this, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void cancel() {
        ScheduledFuture<?> pending = check;
        if (pending != null) {
            check = null;
            pending.cancel(false);
        }
    }
}
