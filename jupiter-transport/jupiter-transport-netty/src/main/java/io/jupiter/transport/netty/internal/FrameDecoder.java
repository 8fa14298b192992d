package io.jupiter.transport.netty.internal;

import io.jupiter.common.Requires;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.PeerIncident;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts the inbound byte stream into {@link Frame}s. One instance per channel (it holds the header being read), so
 * it is not {@code @Sharable}.
 *
 * <p>Every frame starts with the 16-byte header of Jupiter 1.3.1 (big-endian; {@link ProtocolHeader} defines it and
 * its checks):
 *
 * <pre>
 * offset  size  field       checked here
 * +-------+----+-----------+----------------------------------------------------+
 * |     0 |  2 | magic     | must be 0xbabe                                     |
 * |     2 |  1 | sign      | low nibble = message code, must be in the config's |
 * |       |    |           | accepted set; high nibble = serializer code        |
 * |     3 |  1 | status    | -                                                  |
 * |     4 |  8 | id        | -                                                  |
 * |    12 |  4 | body size | 0 &lt;= size &lt;= maxBodySize                           |
 * +-------+----+-----------+----------------------------------------------------+
 * |    16 |  n | body      | n = body size                                      |
 * +-------+----+-----------+----------------------------------------------------+
 * </pre>
 *
 * <p>All checks run as soon as the 16 header bytes are there, before any body byte is buffered, so a peer cannot
 * make us hold more than {@code maxBodySize} bytes for one frame. On a violation the decoder logs one WARN line
 * naming the peer and the reason, closes the channel and drops everything that arrives afterwards; it throws
 * nothing, so no exception travels down the pipeline.
 *
 * <p>A config's {@link TransportConfig#firstFrameMessageCode() first-frame-only code} (a provider's caller token) is
 * accepted on the connection's first frame only, with its own body cap, checked on the header like any other.
 *
 * <p>Once a header has arrived, its body must be complete within the config's {@code bodyTimeoutMillis}, else the
 * connection is closed the same way: a peer cannot hold a partial frame open by trickling bytes (the reader idle
 * time restarts with every byte). The deadline is set when a body does not arrive in the read that brought its
 * header and checked when more bytes come, with no timer (a timer per partial frame cost 6 % at 32 threads with
 * 1 KB bodies); a peer that goes silent instead is closed by the reader idle time.
 *
 * <p>The body of an emitted frame is a retained slice of the cumulation buffer: nothing is copied, and the frame's
 * consumer releases it. Heartbeats (message code {@code 0x0f}) are consumed here; a body they declare (1.3.1
 * always sends none) is skipped. Only a heartbeat with a non-zero status (an announcement, such as
 * {@link ProtocolHeader#STREAMS_ANNOUNCED}, sent with id 0) is emitted, with an empty body.
 *
 * <p>Pings and pongs ({@link ProtocolHeader#HEARTBEAT} with status 0, an id other than 0 and no body): a decoder that
 * answers pings (a server's) writes the pong, at most one per {@link TransportConfig#pingMinIntervalMillis()}; any
 * other (a client's) fires {@link #PONG} as a user event through the whole pipeline, where the keepalive learns that
 * the connection carries pongs and the connection's group that its peer answers pings. An announcement is never
 * taken for a ping or a pong, whatever its id.
 *
 * <p>A peer that sends more heartbeats of any kind than {@link TransportConfig#maxHeartbeatsPerSecond()} within one
 * second (counted from the first of a window, on the clock read once per read) is closed as a malformed one is: it
 * burns the IO thread on frames that carry nothing. Closes are reported through {@link ConnectionIncidents}.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

    private static final Logger logger = LoggerFactory.getLogger(FrameDecoder.class);
    private static final long ONE_SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** The user event a client's decoder fires when a pong arrives. */
    public static final Object PONG = new Object() {
        @Override
        public String toString() {
            return "PONG";
        }
    };

    private final int acceptedMessageCodes;
    private final int maxBodySize;
    private final byte firstFrameMessageCode;
    /** The bit of {@link #firstFrameMessageCode}; 0 without one. */
    private final int firstFrameMask;
    private final int firstFrameMaxBodySize;
    /** Whether the connection's first header was read (the first-frame-only code is no longer accepted). */
    private boolean firstHeaderRead;
    private final long bodyTimeoutMillis;
    private final long bodyTimeoutNanos;
    private final boolean answersPings;
    private final long pingMinIntervalNanos;
    /** When the last pong was written ({@link System#nanoTime()}); only when answering pings. */
    private long lastPongNanos;
    private boolean pongWritten;
    private final int maxHeartbeatsPerSecond;
    /** When the current one-second window of heartbeats began, and how many came in it. */
    private long heartbeatWindowNanos;
    private int heartbeatsInWindow;

    // The header of the frame whose body is awaited; valid while headerRead.
    private boolean headerRead;
    private byte sign;
    private byte status;
    private long id;
    private int bodySize;

    private boolean failed;
    /** When the body awaited must be complete ({@link System#nanoTime()}); 0 while none is awaited. */
    private long bodyDeadlineNanos;
    /** When the bytes being decoded were read: one clock read per read, however many frames it holds. */
    private long readNanos;

    /**
     * A decoder checking frames against {@code config}'s accepted message codes and body cap, which reports pongs
     * and answers no ping (a client's).
     */
    public FrameDecoder(TransportConfig config) {
        this(config, false);
    }

    /**
     * A decoder checking frames against {@code config}'s accepted message codes and body cap.
     *
     * @param answersPings whether pings are answered (a server's decoder) rather than taken as pongs
     */
    public FrameDecoder(TransportConfig config, boolean answersPings) {
        Requires.notNull(config, "config");
        this.answersPings = answersPings;
        this.pingMinIntervalNanos = TimeUnit.MILLISECONDS.toNanos(config.pingMinIntervalMillis());
        this.maxHeartbeatsPerSecond = config.maxHeartbeatsPerSecond();
        this.acceptedMessageCodes = config.acceptedMessageCodes();
        this.maxBodySize = config.maxBodySize();
        this.firstFrameMessageCode = config.firstFrameMessageCode();
        this.firstFrameMask = firstFrameMessageCode == 0 ? 0 : ProtocolHeader.messageCodeMask(firstFrameMessageCode);
        this.firstFrameMaxBodySize = config.firstFrameMaxBodySize();
        this.bodyTimeoutMillis = config.bodyTimeoutMillis();
        this.bodyTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(bodyTimeoutMillis);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        readNanos = System.nanoTime();
        super.channelRead(ctx, msg);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        boolean headerJustRead = false;
        if (!headerRead) {
            if (in.readableBytes() < ProtocolHeader.HEADER_SIZE) {
                // Judge magic and sign as soon as they are here: a peer sending a few bad bytes is closed at
                // once instead of holding the connection until the idle timeout.
                String violation = ProtocolHeader.checkPrefix(in, in.readerIndex(), in.readableBytes(),
                        acceptedNow());
                if (violation != null) {
                    fail(ctx, in, PeerIncident.MALFORMED_FRAME, violation);
                }
                return;
            }
            String violation = readHeader(in);
            if (violation != null) {
                fail(ctx, in, PeerIncident.MALFORMED_FRAME, violation);
                return;
            }
            headerJustRead = true;
        }
        if (ProtocolHeader.messageCode(sign) == ProtocolHeader.HEARTBEAT) {
            if (headerJustRead && tooManyHeartbeats()) {
                fail(ctx, in, PeerIncident.TOO_MANY_HEARTBEATS,
                        "more than " + maxHeartbeatsPerSecond + " heartbeats within one second");
                return;
            }
            if (headerJustRead && id != 0 && bodySize == 0 && status == 0) {
                pingOrPong(ctx);
            }
            // Skip whatever body a heartbeat declares as it arrives; never buffer it.
            int skip = Math.min(bodySize, in.readableBytes());
            in.skipBytes(skip);
            bodySize -= skip;
            if (bodySize == 0) {
                bodyComplete();
                if (status != 0) {
                    out.add(new Frame(ProtocolHeader.HEARTBEAT, (byte) 0, status, id, Unpooled.EMPTY_BUFFER,
                            readNanos));
                }
            } else {
                awaitBody(ctx);
            }
            return;
        }
        if (in.readableBytes() < bodySize) {
            awaitBody(ctx);
            return;
        }
        ByteBuf body = in.readRetainedSlice(bodySize);
        bodyComplete();
        out.add(new Frame(ProtocolHeader.messageCode(sign), ProtocolHeader.serializerCode(sign), status, id, body,
                readNanos));
    }

    private void pingOrPong(ChannelHandlerContext ctx) {
        if (!answersPings) {
            // From the head, so the keepalive in front of this decoder learns of it too.
            ctx.pipeline().fireUserEventTriggered(PONG);
        } else if (!pongWritten || readNanos - lastPongNanos >= pingMinIntervalNanos) {
            pongWritten = true;
            lastPongNanos = readNanos;
            ctx.writeAndFlush(Frames.heartbeat(ctx.alloc(), id), ctx.voidPromise());
        } else if (logger.isDebugEnabled()) {
            logger.debug("not answering a ping from {}: sooner than {} ms after the last answered",
                    Transports.peer(ctx.channel()), TimeUnit.NANOSECONDS.toMillis(pingMinIntervalNanos));
        }
    }

    /** Counts a heartbeat; whether it is one too many for its one-second window. */
    private boolean tooManyHeartbeats() {
        if (maxHeartbeatsPerSecond == 0) {
            return false;
        }
        if (heartbeatsInWindow == 0 || readNanos - heartbeatWindowNanos >= ONE_SECOND_NANOS) {
            heartbeatWindowNanos = readNanos;
            heartbeatsInWindow = 0;
        }
        return ++heartbeatsInWindow > maxHeartbeatsPerSecond;
    }

    /** The body of the current frame is not all here yet: sets its deadline, or closes if it has passed. */
    private void awaitBody(ChannelHandlerContext ctx) {
        if (bodyTimeoutNanos == 0) {
            return;
        }
        long now = readNanos;
        if (bodyDeadlineNanos == 0) {
            bodyDeadlineNanos = now + bodyTimeoutNanos;
        } else if (now - bodyDeadlineNanos > 0) {
            failed = true;
            ConnectionIncidents.of(ctx.channel()).close(ctx.channel(), PeerIncident.SLOW_BODY,
                    "closing {}: the {}-byte body of a frame was not complete {} ms after its header",
                    Transports.peer(ctx.channel()), bodySize, bodyTimeoutMillis);
        }
    }

    private void bodyComplete() {
        headerRead = false;
        bodyDeadlineNanos = 0;
    }

    /** Checks and takes the header at the reader index; returns the violation, or {@code null} if it is valid. */
    private String readHeader(ByteBuf in) {
        int start = in.readerIndex();
        boolean firstFrameOnly = !firstHeaderRead && firstFrameMask != 0
                && ProtocolHeader.messageCode(in.getByte(start + ProtocolHeader.SIGN_OFFSET)) == firstFrameMessageCode;
        String violation = ProtocolHeader.checkHeader(in, start, acceptedNow(),
                firstFrameOnly ? firstFrameMaxBodySize : maxBodySize);
        if (violation != null) {
            return violation;
        }
        this.firstHeaderRead = true;
        this.sign = in.getByte(start + ProtocolHeader.SIGN_OFFSET);
        this.status = in.getByte(start + ProtocolHeader.STATUS_OFFSET);
        this.id = in.getLong(start + ProtocolHeader.ID_OFFSET);
        this.bodySize = in.getInt(start + ProtocolHeader.BODY_SIZE_OFFSET);
        this.headerRead = true;
        in.skipBytes(ProtocolHeader.HEADER_SIZE);
        return null;
    }

    /** The message codes accepted for the header being read: the first-frame-only code too on the first one. */
    private int acceptedNow() {
        return firstHeaderRead ? acceptedMessageCodes : acceptedMessageCodes | firstFrameMask;
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in, PeerIncident incident, String violation) {
        failed = true;
        in.skipBytes(in.readableBytes());
        ConnectionIncidents.of(ctx.channel()).close(ctx.channel(), incident, "closing {}: {}",
                Transports.peer(ctx.channel()), violation);
    }
}
