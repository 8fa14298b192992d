package io.jupiter.transport.netty.internal;

import io.jupiter.transport.PeerIncident;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;

/**
 * What the acceptor does when Netty's {@code IdleStateHandler} reports idleness: it closes a silent connection (the
 * connector's heartbeats are {@link WriterIdleHeartbeat}'s).
 */
public final class IdleHandlers {

    /** Closes a connection that received nothing (not even a heartbeat) for the reader idle time. */
    public static final ReaderIdleCloser READER_IDLE_CLOSER = new ReaderIdleCloser();

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
                ConnectionIncidents.of(ctx.channel()).close(ctx.channel(), PeerIncident.IDLE,
                        "closing {}: nothing received for {} ms", Transports.peer(ctx.channel()),
                        detector != null ? detector.getReaderIdleTimeInMillis() : "the reader idle time");
                return;
            }
            ctx.fireUserEventTriggered(evt);
        }
    }
}
