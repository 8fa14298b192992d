package io.jupiter.protocol.http;

import io.jupiter.common.ThrottledWarning;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the HTTP/2 peer of a port's gRPC and JSON calls may cost in {@code PING}s, by gRPC's rule for servers
 * (grpc-java's keep-alive enforcement, whose defaults these are): every {@code PING} is answered, but one that comes
 * less than {@value #MIN_PING_INTERVAL_MINUTES} minutes after the last accepted one (two hours when no call is open)
 * is a strike, unless the server sent headers or data since (a client's flow-control ping answers the server's data);
 * past {@value #MAX_STRIKES} strikes the connection gets {@code GOAWAY ENHANCE_YOUR_CALM} with the debug data
 * {@code too_many_pings}, which gRPC clients know, and is closed. A peer that floods PINGs costs the server an
 * answer each (the codec's) for at most four of them, then the connection. IO thread only.
 */
final class PingFloodGuard extends ChannelDuplexHandler {

    static final int MIN_PING_INTERVAL_MINUTES = 5;
    static final int MAX_STRIKES = 2;
    private static final long MIN_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(MIN_PING_INTERVAL_MINUTES);
    private static final long MIN_INTERVAL_WITHOUT_CALLS_NANOS = TimeUnit.HOURS.toNanos(2);
    private static final byte[] TOO_MANY_PINGS = "too_many_pings".getBytes(StandardCharsets.US_ASCII);

    private static final Logger logger = LoggerFactory.getLogger(PingFloodGuard.class);
    private static final ThrottledWarning closed = new ThrottledWarning(logger, 1, TimeUnit.MINUTES);

    private final Http2Connection connection;
    /** When the last accepted ping came, if one came since the server last sent headers or data. */
    private long lastAcceptedNanos;
    private boolean anyAccepted;
    private int strikes;
    private boolean goingAway;

    PingFloodGuard(Http2Connection connection) {
        this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http2PingFrame ping && !ping.ack() && !acceptable(System.nanoTime())) {
            ReferenceCountUtil.release(msg);
            if (!goingAway) {
                goingAway = true;
                closed.warnFor(ctx.channel().remoteAddress(), "{}: closing: more than {} PINGs within {} minutes"
                        + " with no answer sent between (GOAWAY too_many_pings)", ctx.channel().remoteAddress(),
                        MAX_STRIKES + 1, MIN_PING_INTERVAL_MINUTES);
                ctx.writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.ENHANCE_YOUR_CALM,
                        ctx.alloc().buffer(TOO_MANY_PINGS.length).writeBytes(TOO_MANY_PINGS)))
                        .addListener(ChannelFutureListener.CLOSE);
            }
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof Http2HeadersFrame || msg instanceof Http2DataFrame) {
            anyAccepted = false; // the server's own activity: the client may ping again
            strikes = 0;
        }
        ctx.write(msg, promise);
    }

    /** Counts a ping that came at {@code now}; {@code false} once it is one strike too many. */
    boolean acceptable(long now) {
        long interval = connection.numActiveStreams() > 0 ? MIN_INTERVAL_NANOS : MIN_INTERVAL_WITHOUT_CALLS_NANOS;
        if (!anyAccepted || now - lastAcceptedNanos >= interval) {
            anyAccepted = true;
            lastAcceptedNanos = now;
            return true;
        }
        return ++strikes <= MAX_STRIKES;
    }
}
