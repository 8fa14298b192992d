package io.jupiter.transport.netty.internal;

import io.jupiter.common.Requires;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.transport.Frames;
import io.jupiter.transport.TransportConfig;
import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client connection's keepalive: finds a dead link within {@link TransportConfig#keepaliveTimeoutMillis()}, idle or
 * busy, when the peer answers pings. The one-way heartbeat of 1.3.1 ({@link WriterIdleHeartbeat}, closer to the socket,
 * so pings count as writes for it) stays, for every peer.
 *
 * <p>Time is counted in ticks of a tenth of the timeout; the hot path only sets a flag per read and per write (no
 * clock read). At each tick:
 * <ul>
 *   <li>a peer that answers pings ({@link PeerPings}): after 4 ticks without inbound bytes (2 when something was
 *       written since the last read, i.e. calls are probably waiting: silence with calls outstanding is the second
 *       signal) a ping goes out, then another every 2 ticks while the silence lasts; after 9 silent ticks (between
 *       90 % and 100 % of the timeout of silence) a connection that has had a pong of its own is closed, which fails
 *       its calls at once as a lost connection and lets the group reconnect with backoff. Three times as long
 *       (27 ticks) is given to a connection still waiting for its first pong (one that waits in a busy provider's
 *       accept queue, or a reconnect the group holds back until it answers: it carries no calls yet, and closing it
 *       early only churns), and to one whose peer was heard on another connection in the last 5 ticks: that peer is
 *       alive and answering, so the silence is more likely a provider IO thread that lags behind (a starved machine,
 *       thousands of connections) than a dead path, and closing would add reconnects to the load;</li>
 *   <li>any other peer (1.3.1, or not known yet): nothing more.</li>
 * </ul>
 * Every new connection sends one ping as soon as it is active (after whatever the frame handler sends first, such as
 * a caller token): the probe that tells whether the peer answers. A 1.3.1 provider drops it as the heartbeat it is.
 */
final class ConnectionKeepalive extends PeriodicChannelCheck {

    private static final Logger logger = LoggerFactory.getLogger(ConnectionKeepalive.class);

    static final int TICKS_PER_TIMEOUT = 10;
    /** Silent ticks after which an idle connection pings. */
    static final int IDLE_PING_TICKS = 4;
    /** Silent ticks after which a connection that wrote since it last read pings. */
    static final int BUSY_PING_TICKS = 2;
    /** Ticks between two pings of one silence. */
    static final int PING_SPACING_TICKS = 2;
    /** Silent ticks after which a connection that had a pong is closed. */
    static final int DEAD_TICKS = 9;
    /**
     * Silent ticks after which a connection is closed that is still waiting for its first pong, or whose peer was
     * heard on another connection meanwhile.
     */
    static final int PATIENT_DEAD_TICKS = 3 * DEAD_TICKS;
    /**
     * How recently the peer must have been heard on another connection for the patient rule. Half the timeout: the
     * other connection notes what it read only at its own tick, and on a starved machine its ticks and reads lag by
     * a few hundred milliseconds while the peer is alive.
     */
    static final int HEARD_ELSEWHERE_TICKS = 5;
    /** One line a second at most: a dead path closes every connection over it at once. */
    private static final ThrottledWarning closes = new ThrottledWarning(logger, 1, TimeUnit.SECONDS);

    private final PeerPings peer;
    private long nextPingId = 1;

    // Event loop only.
    private boolean read;
    private boolean wroteSinceRead;
    private int silentTicks;
    private int ticksSincePing = PING_SPACING_TICKS;
    /** Whether a pong came on this connection. */
    private boolean proven;

    ConnectionKeepalive(TransportConfig config, PeerPings peer) {
        super(TimeUnit.MILLISECONDS.toNanos(Requires.positive(config.keepaliveTimeoutMillis(),
                "keepaliveTimeoutMillis")) / TICKS_PER_TIMEOUT);
        this.peer = Requires.notNull(peer, "peer");
    }

    @Override
    void activated() {
        // After the handlers behind have seen the connection (a caller token must be the first frame).
        ping();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        read = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt == FrameDecoder.PONG) {
            proven = true;
        }
        super.userEventTriggered(ctx, evt);
    }

    /** One tick. */
    @Override
    boolean look() {
        if (read) {
            peer.heard(System.nanoTime());
            read = false;
            silentTicks = 0;
            wroteSinceRead = wrote;
        } else {
            silentTicks++;
            wroteSinceRead |= wrote;
        }
        wrote = false;
        ticksSincePing++;
        if (peer.answers()) {
            if (dead()) {
                closes.warn("closing {}: nothing received for {} ms although the peer answers pings (a dead link?)",
                        Transports.peer(ctx.channel()), silentTicks * TimeUnit.NANOSECONDS.toMillis(periodNanos()));
                ctx.close();
                return false;
            }
            int pingAfter = wroteSinceRead ? BUSY_PING_TICKS : IDLE_PING_TICKS;
            if (silentTicks >= pingAfter && ticksSincePing >= PING_SPACING_TICKS) {
                ping();
            }
        }
        return true;
    }

    private boolean dead() {
        if (silentTicks >= PATIENT_DEAD_TICKS) {
            return true;
        }
        if (!proven || silentTicks < DEAD_TICKS) {
            return false;
        }
        return !peer.heardSince(System.nanoTime() - HEARD_ELSEWHERE_TICKS * periodNanos());
    }

    private void ping() {
        if (!ctx.channel().isActive()) {
            return;
        }
        long id = nextPingId++;
        if (logger.isTraceEnabled()) {
            logger.trace("ping {} to {}", id, ctx.channel());
        }
        ctx.writeAndFlush(Frames.heartbeat(ctx.alloc(), id), ctx.voidPromise());
        ticksSincePing = 0;
    }
}
