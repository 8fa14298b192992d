package io.jupiter.protocol.http;

import io.jupiter.common.ThrottledWarning;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bytes of one connection's unary answers written to the HTTP/2 codec and not yet on the socket: they wait in
 * the codec's flow controller for the client's window. A client that never returns window would make the server hold
 * every answer it asks for; past the transport's {@code maxPendingWriteBytes} the connection is closed, as the
 * transport closes a peer that does not read 1.3.1 answers. Used on the connection's IO thread only.
 */
final class OwedAnswers {

    private static final Logger logger = LoggerFactory.getLogger(OwedAnswers.class);
    /** A peer can stop reading at will: one line a minute per peer host. */
    private static final ThrottledWarning notReading = new ThrottledWarning(logger, 1, TimeUnit.MINUTES);

    private final long limit;
    private long owed;

    OwedAnswers(long limit) {
        this.limit = limit;
    }

    /**
     * Counts an answer of {@code bytes} about to be written; {@code false} (and the connection closing) if what the
     * connection would then owe passes the limit.
     */
    boolean take(ChannelHandlerContext ctx, int bytes) {
        if (owed + bytes > limit) {
            SocketAddress peer = ctx.channel().remoteAddress();
            notReading.warnFor(peer instanceof InetSocketAddress inet ? inet.getAddress() : peer,
                    "closing {}: the peer is not reading ({} bytes of answers waiting for its HTTP/2 window, limit {})",
                    peer, owed + bytes, limit);
            ctx.close();
            return false;
        }
        owed += bytes;
        return true;
    }

    /** The answer of {@code bytes} counted by {@link #take} is on the socket, or will never be (its stream ended). */
    void settle(ChannelFuture written, int bytes) {
        written.addListener(done -> owed -= bytes);
    }

    long owed() {
        return owed;
    }
}
