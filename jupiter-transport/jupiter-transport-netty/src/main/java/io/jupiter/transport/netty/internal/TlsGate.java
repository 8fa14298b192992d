package io.jupiter.transport.netty.internal;

import io.jupiter.common.LogText;
import io.jupiter.common.ThrottledWarning;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;

/**
 * Sits right behind the {@code SslHandler} and holds {@code channelActive} back until the TLS handshake has
 * succeeded, so that the handlers behind it (and the {@link io.jupiter.transport.FrameHandler}) see a connection only
 * once it is encrypted and its peer verified. Then it removes itself.
 *
 * <p>When the handshake fails (a plaintext peer, a certificate that does not verify, a protocol older than TLS 1.2,
 * the handshake timeout) the connection is closed; on an accepted connection the failure is logged in one WARN line,
 * at most once a second per remote address. The {@link SslHandshakeCompletionEvent} is passed on either way, so the
 * connector's reconnect logic learns why. Exceptions raised before the handshake ends are the handshake's failure
 * and are not passed on. One instance per channel.
 */
public final class TlsGate extends ChannelInboundHandlerAdapter {

    private final ThrottledWarning failures;

    /**
     * @param failures where an accepted connection's failed handshake is logged; {@code null} on the client side,
     *                 whose connector reports it
     */
    public TlsGate(ThrottledWarning failures) {
        this.failures = failures;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        // Held back: fired once the handshake has succeeded.
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (!(evt instanceof SslHandshakeCompletionEvent done)) {
            ctx.fireUserEventTriggered(evt);
            return;
        }
        if (done.isSuccess()) {
            ctx.pipeline().remove(this);
            ctx.fireChannelActive();
            ctx.fireUserEventTriggered(evt);
            return;
        }
        ctx.fireUserEventTriggered(evt);
        if (failures != null) {
            Object peer = ctx.channel().remoteAddress() instanceof InetSocketAddress remote ? remote.getAddress()
                    : null;
            failures.warnFor(peer, "closing {}: {}", ctx.channel().remoteAddress(), describe(done.cause()));
        }
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Before the handshake ends, an exception is the handshake failing: the completion event reports it.
        ctx.close();
    }

    /** One line saying why a handshake failed, from the innermost cause that says something; never a trace. */
    public static String describe(Throwable cause) {
        String message = null;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NotSslRecordException) {
                return "not TLS (a plaintext peer on a TLS port?)";
            }
            if (t instanceof ClosedChannelException) {
                return "the peer closed the connection during the TLS handshake (a plaintext port? a refused "
                        + "certificate?)";
            }
            if (t.getMessage() != null) {
                message = t.getMessage();
            }
        }
        // Library text, but it may quote what the peer sent (a certificate name): neutralised like any remote text.
        return "TLS handshake failed: " + (message != null ? LogText.of(message) : cause.getClass().getSimpleName());
    }
}
