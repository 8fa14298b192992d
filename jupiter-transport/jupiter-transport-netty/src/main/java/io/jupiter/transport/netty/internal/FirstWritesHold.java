package io.jupiter.transport.netty.internal;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Beside a {@link ProtocolSniffer}: holds what the server writes on a connection before its protocol is known (a
 * provider's streams announcement, written as the connection opens), so that a client of another protocol, which
 * speaks first, never reads 1.3.1 bytes. Once the sniffer has decided, the held writes go on: to the socket for
 * 1.3.1, through the other protocol's handlers otherwise (which drop what they do not answer). A peer that has sent
 * nothing after {@value #HOLD_MILLIS} ms is taken to speak 1.3.1 for this (a Jupiter consumer may wait for the
 * announcement before it sends a stream's first frame), and the writes go to the socket; one that sent bytes other
 * than 1.3.1's first is waited for until the sniffer decides.
 *
 * <p>The wait starts when the connection becomes active for the handlers behind TLS: with TLS, once the handshake
 * has succeeded ({@link TlsGate} holds {@code channelActive} until then), so a slow handshake does not eat into it.
 */
final class FirstWritesHold extends ChannelDuplexHandler {

    /**
     * How long writes are held for a peer that sends nothing. Other protocols' clients speak at once, but a client
     * in a cold JVM can take a few hundred milliseconds to write its first bytes (grpc-java's first connection took
     * more than 100 ms on a busy 2-core machine); a Jupiter consumer waits up to three seconds for the announcement
     * ({@code ConsumerStreams.ANNOUNCEMENT_GRACE_MILLIS}), so this stays well below that.
     */
    static final long HOLD_MILLIS = 500;

    private record Held(Object message, ChannelPromise promise) {
    }

    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> timer;
    private boolean released;
    private boolean spoke;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (!released && !spoke && timer == null) {
            timer = ctx.executor().schedule(this::release, HOLD_MILLIS, TimeUnit.MILLISECONDS);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (released) {
            ctx.write(msg, promise);
        } else {
            held.add(new Held(msg, promise));
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (released) {
            ctx.flush();
        }
    }

    /**
     * The peer sent its first bytes and they are not 1.3.1's: it speaks first, so the writes are held until the
     * sniffer decides (within its 64 bytes), however long the peer takes to send them.
     */
    void peerSpoke() {
        spoke = true;
        if (timer != null) {
            timer.cancel(false);
        }
    }

    /** The wait is over, or the protocol is 1.3.1: the held writes go to the socket, in order. */
    void release() {
        Held[] writes = open();
        for (Held h : writes) {
            ctx.write(h.message(), h.promise());
        }
        ctx.flush();
    }

    /**
     * Another protocol's handlers are about to be installed: from now on every write goes straight on (theirs
     * too, such as HTTP/2's settings), and the writes held so far are returned, for {@link #replay}.
     */
    Runnable openFor(ChannelHandlerContext dispatcher) {
        Held[] writes = open();
        return () -> {
            for (Held h : writes) {
                dispatcher.write(h.message(), h.promise());
            }
            dispatcher.flush();
        };
    }

    /** Stops holding, removes this handler; returns what it held. Once; later calls return nothing. */
    private Held[] open() {
        if (released) {
            return new Held[0];
        }
        released = true;
        if (timer != null) {
            timer.cancel(false);
        }
        Held[] writes = held.toArray(new Held[0]);
        held.clear();
        if (!ctx.isRemoved()) {
            ctx.pipeline().remove(this);
        }
        return writes;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        released = true;
        if (timer != null) {
            timer.cancel(false);
        }
        for (Held h; (h = held.poll()) != null; ) { // the channel closed before its protocol was known
            ReferenceCountUtil.release(h.message());
            if (!h.promise().isVoid()) { // a void promise would report the failure as a pipeline exception
                h.promise().tryFailure(new ClosedChannelException());
            }
        }
    }
}
