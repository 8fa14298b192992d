package io.jupiter.protocol.http.client;

import io.jupiter.transport.netty.internal.TlsGate;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

/**
 * Sits behind the TLS gate of a gRPC connection and before its HTTP/2 codec: once the handshake has succeeded, lets
 * the connection through only if the server selected {@code h2} by ALPN (gRPC over TLS is HTTP/2 chosen by ALPN), and
 * tells the connection's group why a connection failed its handshake, so that a call fails at once with that reason
 * rather than waiting for a connection that cannot come. One instance per channel.
 */
final class GrpcTlsCheck extends ChannelInboundHandlerAdapter {

    static final String H2 = "h2";

    private final GrpcConnectionGroup group;

    GrpcTlsCheck(GrpcConnectionGroup group) {
        this.group = group;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // Fired by the TLS gate once the handshake has succeeded.
        String selected = ctx.pipeline().get(SslHandler.class).applicationProtocol();
        if (!H2.equals(selected)) {
            group.handshakeFailed("the server did not select h2 by ALPN (selected: "
                    + (selected == null ? "none" : selected) + "): not a gRPC server over TLS", null);
            ctx.close();
            return;
        }
        ctx.pipeline().remove(this);
        ctx.fireChannelActive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            group.handshakeFailed(TlsGate.describe(done.cause()), done.cause());
        }
        ctx.fireUserEventTriggered(evt);
    }
}
