package io.jupiter.protocol.http;

import io.jupiter.common.ThrottledWarning;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportConfig;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The caller token of one HTTP or gRPC connection to a server with a {@code TokenAuthenticator}: the token of the
 * connection's first call ({@code authorization: Bearer <token>}) goes to the provider as the token frame a Jupiter
 * consumer sends first ({@link ProtocolHeader#CALLER_TOKEN}), just before that call, so the server's token gate
 * names the connection's caller (or refuses it: the call is answered "caller token refused" and the connection
 * closed; without a token, "caller token missing"). Every later call of the connection must carry the same token
 * (compared by SHA-256 digest, in constant time); any other is refused here. On a server without token
 * authentication the header is ignored. One instance per connection, used on its IO thread.
 */
final class CallerTokens {

    /** What the refusals of this module start with, as the token gate's do (the text only: the type is the reason). */
    static final String REFUSAL_PREFIX = "caller token ";

    private static final Logger logger = LoggerFactory.getLogger(CallerTokens.class);
    private static final ThrottledWarning refusals = new ThrottledWarning(logger, 1, TimeUnit.MINUTES);
    private static final String BEARER = "bearer ";

    /** The id of the token frame this module sends, under which the gate notes its refusal. */
    private static final long TOKEN_FRAME_ID = 0;

    private final boolean required;
    /** The SHA-256 digest of the token the connection presented first; {@code null} before its first call. */
    private byte[] presented;
    /** Whether the server's token gate refused the token the connection presented (known once asked). */
    private boolean gateRefused;

    /** For a connection of a server configured by {@code config} (its first-frame code says if tokens are asked). */
    CallerTokens(TransportConfig config) {
        this.required = config.firstFrameMessageCode() == ProtocolHeader.CALLER_TOKEN;
    }

    /**
     * Before a call goes to the provider: on the first, fires its token frame (if it carries a token); on later
     * ones, checks the token is the first's. Returns {@code null} if the call may go on, else the refusal, as a
     * {@link ForeignCallException} ({@code BAD_REQUEST} for {@link RefusalReason#UNAUTHENTICATED}, a message starting
     * {@value #REFUSAL_PREFIX}), logged here.
     *
     * @param authorization the call's {@code authorization} header, or {@code null}
     */
    ForeignCallException beforeCall(ChannelHandlerContext ctx, CharSequence authorization) {
        if (!required) {
            return null;
        }
        String token = bearer(authorization);
        if (presented == null) {
            if (token == null) {
                return null; // the gate answers this call "caller token missing" and closes the connection
            }
            byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
            if (bytes.length > ProtocolHeader.MAX_CALLER_TOKEN_SIZE) {
                return refuse(ctx, "longer than " + ProtocolHeader.MAX_CALLER_TOKEN_SIZE + " bytes");
            }
            presented = digest(bytes);
            ctx.fireChannelRead(new Frame(ProtocolHeader.CALLER_TOKEN, (byte) 0, Status.OK.value(), TOKEN_FRAME_ID,
                    Unpooled.wrappedBuffer(bytes), System.nanoTime()));
            return null;
        }
        byte[] now = token == null ? new byte[0] : digest(token.getBytes(StandardCharsets.UTF_8));
        return MessageDigest.isEqual(now, presented) ? null
                : refuse(ctx, "not the one this connection presented first (one token per connection)");
    }

    /**
     * Before a call this module answers itself that must come from a known caller (server reflection, which lists
     * the services): as {@link #beforeCall}, and on a server with token authentication the call is refused unless
     * the connection presented a token the server's token gate accepted (the gate judges the token frame as it is
     * handed on, on this IO thread, and notes a refusal in {@code refusals}). Returns {@code null} if it may go on.
     */
    ForeignCallException beforeOwnCall(ChannelHandlerContext ctx, CharSequence authorization,
                                       ConnectionRefusals refusals) {
        if (!required) {
            return null;
        }
        ForeignCallException refused = beforeCall(ctx, authorization);
        if (refused != null) {
            return refused;
        }
        if (presented == null) {
            return refuse(ctx, null);
        }
        if (!gateRefused && refusals.take(TOKEN_FRAME_ID) == RefusalReason.UNAUTHENTICATED) {
            gateRefused = true;
        }
        return gateRefused ? new ForeignCallException(StatusTable.BAD_REQUEST.status(), RefusalReason.UNAUTHENTICATED,
                REFUSAL_PREFIX + "refused") : null;
    }

    /** {@code why}: why the token is refused; {@code null}: there is none. */
    private static ForeignCallException refuse(ChannelHandlerContext ctx, String why) {
        if (why == null) {
            Object peer = ctx.channel().remoteAddress() instanceof InetSocketAddress remote ? remote.getAddress()
                    : null;
            refusals.warnFor(peer, "{}: call refused: it presents no caller token", ctx.channel().remoteAddress());
            return new ForeignCallException(StatusTable.BAD_REQUEST.status(), RefusalReason.UNAUTHENTICATED,
                    REFUSAL_PREFIX + "missing: this server requires a caller token (authorization: Bearer <token>)");
        }
        Object peer = ctx.channel().remoteAddress() instanceof InetSocketAddress remote ? remote.getAddress() : null;
        refusals.warnFor(peer, "{}: call refused: its caller token is {}", ctx.channel().remoteAddress(), why);
        return new ForeignCallException(StatusTable.BAD_REQUEST.status(), RefusalReason.UNAUTHENTICATED,
                REFUSAL_PREFIX + "refused: " + why);
    }

    /** The token of an {@code authorization: Bearer <token>} header, or {@code null}. */
    private static String bearer(CharSequence authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.toString().trim();
        if (!value.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        String token = value.substring(BEARER.length()).trim();
        return token.isEmpty() ? null : token;
    }

    private static byte[] digest(byte[] token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
