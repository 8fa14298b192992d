package io.jupiter.protocol.http.client;

import io.netty.channel.ChannelHandlerContext;

/**
 * What a {@link StreamingCall} sends after its request headers: one message ({@link #one}, a server stream's), or
 * the messages of the caller's publisher ({@link RequestStream}, a client or bidirectional stream's).
 */
interface Requests {

    /**
     * Starts sending, on the stream's event loop, once its headers were written (not flushed); a failure to send
     * ends {@code call}.
     */
    void start(ChannelHandlerContext ctx, GrpcCall call);

    /** The stream's channel became writable or unwritable (its HTTP/2 window, its connection's buffer); event loop. */
    default void writabilityChanged() {
    }

    /** The call ended, however it ended: sends no more (cancels the caller's publisher); any thread, idempotent. */
    default void stop() {
    }

    /** One message, which ends the client's side. */
    static Requests one(byte[] message) {
        return (ctx, call) -> ctx.writeAndFlush(GrpcCall.message(ctx.alloc(), message, true));
    }
}
