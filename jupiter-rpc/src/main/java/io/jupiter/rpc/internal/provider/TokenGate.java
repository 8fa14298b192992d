package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.RefusalLog;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.protocol.RefusalReason;
import io.jupiter.rpc.protocol.RefusalReasons;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.rpc.security.TokenAuthenticator;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.ProtocolHeader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The caller token of a server with a {@link TokenAuthenticator}, in front of the provider's chain: takes the
 * frames of every connection until its caller is known. The first frame must be a
 * {@link ProtocolHeader#CALLER_TOKEN} the authenticator accepts, which
 * names the caller. Otherwise the connection's first request is answered {@code BAD_REQUEST} (token missing, or
 * refused) without its body being read, and the connection is closed; a connection whose token was refused and
 * that sends no request is closed after {@link #REFUSED_CLOSE_DELAY_MILLIS}. A connection that has not presented a
 * token within the token deadline after it opened is closed, whatever it sent meanwhile: heartbeats, which the
 * transport answers before any frame reaches the gate, would otherwise hold it open for ever.
 *
 * <p>All of it runs on the connection's IO thread. The token is never logged, nor sent back.
 */
final class TokenGate {

    /** How long a connection whose token was refused may wait for a request to hear the refusal in. */
    static final long REFUSED_CLOSE_DELAY_MILLIS = 5_000;
    /** The answer to the first request of a connection that sent no token. */
    static final String MISSING = "caller token missing: this provider requires a token as the first frame of every"
            + " connection (JupiterClient.Builder.callerToken)";
    /** The answer to the first request of a connection whose token was refused. */
    static final String REFUSED = "caller token refused";

    private final TokenAuthenticator authenticator;
    /** Connections open whose first frame has not arrived. */
    private final Set<Connection> awaitingToken = ConcurrentHashMap.newKeySet();
    /** Connections whose token was refused and whose first request has not arrived. */
    private final Set<Connection> tokenRefused = ConcurrentHashMap.newKeySet();

    private final long deadlineMillis;
    /** A peer can open connections at will: the server's refusal lines. */
    private final RefusalLog refusals;
    /** Where a refusal is noted as the caller's being unknown, for other protocols. */
    private final RefusalReasons reasons;

    TokenGate(TokenAuthenticator authenticator, long deadlineMillis, RefusalLog refusals, RefusalReasons reasons) {
        this.authenticator = authenticator;
        this.deadlineMillis = deadlineMillis;
        this.refusals = refusals;
        this.reasons = reasons;
    }

    void opened(Connection connection) {
        awaitingToken.add(connection);
        if (connection.ioExecutor() instanceof ScheduledExecutorService io) {
            io.schedule(() -> closeIfStillWaiting(connection), deadlineMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void closeIfStillWaiting(Connection connection) {
        if (awaitingToken.remove(connection)) {
            refusals.refused(connection, RefusalLog.Cause.NO_TOKEN_IN_TIME,
                    "closing {}: no caller token within {} ms of opening",
                    connection.remoteAddress(), deadlineMillis);
            connection.close();
        }
    }

    void closed(Connection connection) {
        awaitingToken.remove(connection);
        tokenRefused.remove(connection);
    }

    /**
     * A frame of a connection whose caller is not known yet. A token it accepts names the connection's caller
     * ({@code open}, if still open). Returns {@code null} once the gate dealt with the frame (and released it), or
     * the refusal that the frame, a request, is to be answered with (still the caller's, unread); the connection is
     * closed after that answer.
     */
    Refusal received(Connection connection, OpenConnection open, Frame frame) {
        if (awaitingToken.remove(connection)) {
            if (frame.messageCode() != ProtocolHeader.CALLER_TOKEN) {
                refusals.refused(connection, RefusalLog.Cause.FIRST_FRAME_NOT_A_TOKEN,
                        "closing {}: its first frame is not a caller token",
                        connection.remoteAddress());
                return refuse(connection, frame, MISSING);
            }
            long tokenId = frame.id();
            CallerIdentity caller = authenticate(connection, frame);
            if (caller == null) {
                // Noted under the token frame's id: a protocol answering a call itself (reflection) asks.
                reasons.refused(connection, tokenId, RefusalReason.UNAUTHENTICATED);
                tokenRefused.add(connection);
                closeLater(connection);
            } else if (open != null) {
                open.caller(caller);
            }
            return null;
        }
        if (tokenRefused.remove(connection)) {
            return refuse(connection, frame, REFUSED);
        }
        frame.release(); // a frame that was on its way when the connection was refused: it is closing
        return null;
    }

    /** The caller the token frame names, or {@code null} once the refusal is logged. Releases the frame. */
    private CallerIdentity authenticate(Connection connection, Frame frame) {
        String token;
        try {
            token = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(frame.body().nioBuffer()).toString();
        } catch (CharacterCodingException e) {
            token = null;
        } finally {
            frame.release();
        }
        String refused;
        CallerIdentity caller = null;
        if (token == null || token.isBlank()) {
            refused = token == null ? "not UTF-8" : "blank";
        } else {
            try {
                caller = authenticator.authenticate(token);
                refused = caller == null || caller.isAnonymous() ? "unknown" : null;
            } catch (RuntimeException e) {
                // Only the class: an authenticator's message might quote the token.
                refused = "the authenticator threw " + e.getClass().getName();
            }
        }
        if (refused != null) {
            refusals.refused(connection, RefusalLog.Cause.TOKEN_REFUSED,
                    "refusing {}: its caller token was refused ({}); its first request is"
                    + " answered BAD_REQUEST, then it is closed", connection.remoteAddress(), refused);
            return null;
        }
        return caller;
    }

    /** A request is refused {@code BAD_REQUEST} with {@code why}, body unread, then closed; anything else closes. */
    private Refusal refuse(Connection connection, Frame frame, String why) {
        if (frame.messageCode() != ProtocolHeader.REQUEST) {
            frame.release();
            connection.close();
            return null;
        }
        reasons.refused(connection, frame.id(), RefusalReason.UNAUTHENTICATED);
        return Refusal.closing(StatusTable.BAD_REQUEST.status(), why);
    }

    private static void closeLater(Connection connection) {
        if (connection.ioExecutor() instanceof ScheduledExecutorService io) {
            io.schedule(connection::close, REFUSED_CLOSE_DELAY_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            connection.close();
        }
    }
}
