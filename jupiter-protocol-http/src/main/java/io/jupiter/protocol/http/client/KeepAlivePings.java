package io.jupiter.protocol.http.client;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Finds a dead connection to a gRPC server as gRPC's clients do ({@code keepAliveTime}, {@code keepAliveTimeout}):
 * once nothing was read from the server for the keep-alive time, a {@code PING} goes out; if nothing (its ack or any
 * other byte) is read within the timeout, the connection is closed, saying so, and its calls fail at once instead of
 * at their deadlines. While the connection has no call open it is pinged only if {@link KeepAlive#withoutCalls}.
 * Sits next to the socket (after TLS), so every byte the server sends counts as life.
 */
final class KeepAlivePings extends ChannelDuplexHandler {

    private final KeepAlive settings;
    private ChannelHandlerContext ctx;
    private long lastReadNanos;
    /** When the unanswered ping went out; 0: none is out. */
    private long pingSentNanos;
    private long pingsSent;
    private ScheduledFuture<?> check;

    KeepAlivePings(KeepAlive settings) {
        this.settings = settings;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (ctx.channel().isActive()) {
            start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start();
        ctx.fireChannelActive();
    }

    private void start() {
        if (check == null) {
            lastReadNanos = System.nanoTime();
            schedule(settings.timeNanos());
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastReadNanos = System.nanoTime();
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stop();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    private void stop() {
        if (check != null) {
            check.cancel(false);
        }
    }

    private void schedule(long delayNanos) {
        check = ctx.executor().schedule(this::check, Math.max(delayNanos, 1), TimeUnit.NANOSECONDS);
    }

    private void check() {
        if (!ctx.channel().isActive()) {
            return;
        }
        long now = System.nanoTime();
        if (pingSentNanos != 0) {
            if (lastReadNanos - pingSentNanos >= 0) { // the server spoke since the ping
                pingSentNanos = 0;
            } else {
                long waited = TimeUnit.NANOSECONDS.toMillis(now - pingSentNanos);
                ctx.channel().attr(GrpcConnection.CLOSE_REASON).setIfAbsent("nothing read from the server within "
                        + waited + " ms of a keep-alive PING (GrpcClientProtocol.Builder.keepAlive)");
                ctx.close();
                return;
            }
        }
        long idle = now - lastReadNanos;
        long time = settings.timeNanos();
        if (idle < time) {
            schedule(time - idle);
            return;
        }
        if (!settings.withoutCalls() && !hasCalls()) {
            schedule(time);
            return;
        }
        pingSentNanos = now;
        // The codec is above this handler: the ping starts at the pipeline's tail.
        ctx.channel().writeAndFlush(new DefaultHttp2PingFrame(++pingsSent));
        schedule(settings.timeoutNanos());
    }

    private boolean hasCalls() {
        Http2FrameCodec codec = ctx.pipeline().get(Http2FrameCodec.class);
        return codec != null && codec.connection().numActiveStreams() > 0;
    }

    /**
     * The keep-alive settings of a client, shared by its connections: a server that answers a client's pings with
     * {@code GOAWAY ENHANCE_YOUR_CALM "too_many_pings"} doubles the time for every later connection, as gRPC's
     * clients do.
     */
    static final class KeepAlive {

        private volatile long timeNanos;
        private final long timeoutNanos;
        private final boolean withoutCalls;

        KeepAlive(long timeMillis, long timeoutMillis, boolean withoutCalls) {
            this.timeNanos = TimeUnit.MILLISECONDS.toNanos(timeMillis);
            this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            this.withoutCalls = withoutCalls;
        }

        long timeNanos() {
            return timeNanos;
        }

        long timeoutNanos() {
            return timeoutNanos;
        }

        boolean withoutCalls() {
            return withoutCalls;
        }

        /** The server said {@code too_many_pings}: pings half as often from now on. Returns the new time in ms. */
        long tooManyPings() {
            long doubled = timeNanos > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : timeNanos * 2;
            timeNanos = doubled;
            return TimeUnit.NANOSECONDS.toMillis(doubled);
        }
    }
}
