package io.jupiter.transport.netty.internal;

import io.jupiter.transport.Frames;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What to do when Netty's {@code IdleStateHandler} reports idleness: the acceptor closes a silent connection, the
 * connector sends a heartbeat. Both are stateless singletons.
 */
public final class IdleHandlers {

    private static final Logger logger = LoggerFactory.getLogger(IdleHandlers.class);

    /** Closes a connection that received nothing (not even a heartbeat) for the reader idle time. */
    public static final ReaderIdleCloser READER_IDLE_CLOSER = new ReaderIdleCloser();
    /** Writes {@link Frames#heartbeat} on a connection that wrote nothing for the writer idle time. */
    public static final HeartbeatSender HEARTBEAT_SENDER = new HeartbeatSender();

    private IdleHandlers() {
    }

    /** Closes the channel on {@link IdleState#READER_IDLE}. */
    @Sharable
    public static final class ReaderIdleCloser extends ChannelInboundHandlerAdapter {

        private ReaderIdleCloser() {
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent idle && idle.state() == IdleState.READER_IDLE) {
                IdleStateHandler detector = ctx.pipeline().get(IdleStateHandler.class);
                logger.info("closing {}: nothing received for {} ms", ctx.channel().remoteAddress(),
                        detector != null ? detector.getReaderIdleTimeInMillis() : "the reader idle time");
                ctx.close();
                return;
            }
            ctx.fireUserEventTriggered(evt);
        }
    }

    /** Sends a heartbeat on {@link IdleState#WRITER_IDLE}. */
    @Sharable
    public static final class HeartbeatSender extends ChannelInboundHandlerAdapter {

        private HeartbeatSender() {
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent idle && idle.state() == IdleState.WRITER_IDLE) {
                if (logger.isTraceEnabled()) {
                    logger.trace("heartbeat to {}", ctx.channel());
                }
                ctx.writeAndFlush(Frames.heartbeat(ctx.alloc()), ctx.voidPromise());
                return;
            }
            ctx.fireUserEventTriggered(evt);
        }
    }
}
