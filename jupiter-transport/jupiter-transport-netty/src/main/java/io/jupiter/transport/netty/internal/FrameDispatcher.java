package io.jupiter.transport.netty.internal;

import io.jupiter.common.Requires;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.PeerIncident;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last inbound step of every pipeline: turns channel events into {@link FrameHandler} calls on the channel's
 * {@link NettyConnection}, and applies back-pressure.
 *
 * <ul>
 * <li>{@code channelActive} calls {@link FrameHandler#connected}, {@code channelInactive} calls
 *     {@link FrameHandler#disconnected} (once per connection), each {@link Frame} goes to
 *     {@link FrameHandler#frameReceived}, which then owns it.</li>
 * <li>When the channel's outbound buffer passes its high water mark the channel stops reading
 *     ({@code autoRead(false)}) until the buffer drains below the low mark, so a peer that sends requests but does
 *     not read answers cannot make us buffer without bound.</li>
 * <li>An {@link IOException} (connection reset, ...) or a {@link DecoderException} closes the connection with one log
 *     line; once the connection is closed, the failures that follow (one per frame that was waiting to be written:
 *     their promises are void) print nothing. Any other exception, and a frame handler that throws, is logged and
 *     the connection stays open. Every line is throttled per peer and cause ({@link ConnectionIncidents}).</li>
 * </ul>
 *
 * <p>It holds only immutable references (the handler, the {@link ConnectionIncidents} of its acceptor or connector),
 * so one instance serves all channels of an acceptor or a connector.
 */
@Sharable
public final class FrameDispatcher extends ChannelInboundHandlerAdapter {

    private static final Logger logger = LoggerFactory.getLogger(FrameDispatcher.class);

    private final FrameHandler handler;
    private final ConnectionIncidents incidents = new ConnectionIncidents();

    /** A dispatcher delivering to {@code handler}. */
    public FrameDispatcher(FrameHandler handler) {
        this.handler = Requires.notNull(handler, "handler");
    }

    /** The incidents of the channels this dispatcher serves; each channel is attached to them. */
    public ConnectionIncidents incidents() {
        return incidents;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        NettyConnection connection = NettyConnection.of(ctx.channel());
        try {
            handler.connected(connection);
        } catch (Throwable t) {
            incidents.log(ctx.channel(), PeerIncident.HANDLER_ERROR, "FrameHandler.connected({}) threw", connection, t);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        NettyConnection connection = NettyConnection.of(ctx.channel());
        if (connection.markDisconnected()) {
            try {
                handler.disconnected(connection);
            } catch (Throwable t) {
                incidents.log(ctx.channel(), PeerIncident.HANDLER_ERROR, "FrameHandler.disconnected({}) threw",
                        connection, t);
            }
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Frame frame)) {
            ReferenceCountUtil.release(msg);
            logger.warn("{} dropped an unexpected message of type {}", ctx.channel(), msg.getClass().getName());
            return;
        }
        NettyConnection connection = NettyConnection.of(ctx.channel());
        try {
            handler.frameReceived(connection, frame);
        } catch (Throwable t) {
            // The handler owns the frame from the moment it is called; it must release it even when it fails.
            incidents.log(ctx.channel(), PeerIncident.HANDLER_ERROR, "FrameHandler.frameReceived({}, {}) threw",
                    connection, frame, t);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Channel channel = ctx.channel();
        boolean writable = channel.isWritable();
        channel.config().setAutoRead(writable);
        if (logger.isDebugEnabled()) {
            logger.debug("{} {} reading: outbound buffer {} the water mark", channel, writable ? "resumes" : "stops",
                    writable ? "below" : "above");
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException || cause instanceof DecoderException) {
            incidents.failed(ctx.channel(), "closing {}: {}", ctx.channel(), cause.toString());
        } else {
            incidents.log(ctx.channel(), PeerIncident.HANDLER_ERROR, "unexpected exception on {}", ctx.channel(),
                    cause);
        }
    }
}
