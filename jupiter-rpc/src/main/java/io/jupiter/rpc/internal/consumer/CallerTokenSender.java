package io.jupiter.rpc.internal.consumer;

import io.jupiter.common.ThrottledWarning;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the client's caller token as the first frame of every connection it opens, reconnections too, asking the
 * supplier each time (so a token may rotate). With no usable token it sends nothing: a provider that asks for one
 * then answers the connection's first request "caller token missing". The token is never logged.
 */
final class CallerTokenSender {

    private static final Logger log = LoggerFactory.getLogger(CallerTokenSender.class);
    private static final ThrottledWarning unusable = new ThrottledWarning(log, 1, TimeUnit.SECONDS);

    private final Supplier<String> tokens;

    CallerTokenSender(Supplier<String> tokens) {
        this.tokens = tokens;
    }

    /** Writes the token frame on {@code connection}, which just opened (on its IO thread, before any request). */
    void send(Connection connection) {
        String token;
        try {
            token = tokens.get();
        } catch (RuntimeException e) {
            // Only the class: the message might quote a token.
            unusable.warn("no caller token sent to {}: the token supplier threw {}", connection.remoteAddress(),
                    e.getClass().getName());
            return;
        }
        if (token == null || token.isBlank()) {
            unusable.warn("no caller token sent to {}: the token supplier gave {}", connection.remoteAddress(),
                    token == null ? "null" : "a blank token");
            return;
        }
        byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > ProtocolHeader.MAX_CALLER_TOKEN_SIZE) {
            unusable.warn("no caller token sent to {}: the token supplier gave {} bytes (expected: at most {})",
                    connection.remoteAddress(), bytes.length, ProtocolHeader.MAX_CALLER_TOKEN_SIZE);
            return;
        }
        connection.write(Frames.callerToken(connection.alloc(), bytes));
    }
}
