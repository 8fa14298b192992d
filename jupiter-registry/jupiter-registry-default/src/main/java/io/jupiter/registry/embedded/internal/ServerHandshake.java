package io.jupiter.registry.embedded.internal;

import io.jupiter.common.ThrottledWarning;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry server's side of {@link RegistryAuth}'s handshake: challenges each new connection, checks the
 * client's proof (the only frame accepted before it), answers with its own, and closes a connection that sends
 * anything else first, proves a wrong secret or no proof within the timeout, each with one WARN line.
 *
 * <p>Called on the IO threads; the timeout runs on the given scheduler. A connection is challenged or authenticated,
 * never both.
 */
final class ServerHandshake {

    private static final Logger log = LoggerFactory.getLogger(ServerHandshake.class);

    private final RegistryAuth auth;
    private final long timeoutMillis;
    private final ScheduledExecutorService timer;
    private final ThrottledWarning refused;
    private final Map<Connection, byte[]> challenged = new ConcurrentHashMap<>();
    private final Set<Connection> authenticated = ConcurrentHashMap.newKeySet();

    ServerHandshake(RegistryAuth auth, long timeoutMillis, ScheduledExecutorService timer, ThrottledWarning refused) {
        this.auth = auth;
        this.timeoutMillis = timeoutMillis;
        this.timer = timer;
        this.refused = refused;
    }

    /** Sends the challenge to a new connection and starts its timeout. */
    void challenge(Connection connection) {
        byte[] nonce = RegistryAuth.nonce();
        challenged.put(connection, nonce);
        connection.write(RegistryAuth.frame(connection.alloc(), RegistryAuth.CHALLENGE, nonce));
        try {
            timer.schedule(() -> {
                if (challenged.remove(connection) != null && connection.isActive()) {
                    refused.warnFor(PeerHost.of(connection), "closing registry connection {}: no proof of the "
                            + "registry secret within {} ms", connection.remoteAddress(), timeoutMillis);
                    connection.close();
                }
            }, timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            connection.close();
        }
    }

    /** Whether the connection proved the secret. */
    boolean passed(Connection connection) {
        return authenticated.contains(connection);
    }

    /**
     * Checks a frame from a connection that has not passed yet, and releases it.
     *
     * @return whether the connection passed with this frame (its proof was right and the server's proof is sent)
     */
    boolean receive(Connection connection, Frame frame) {
        byte[] serverNonce = challenged.remove(connection);
        if (serverNonce == null) {
            // Timed out (and closing) already.
            frame.release();
            connection.close();
            return false;
        }
        if (frame.messageCode() != RegistryFrames.AUTH_CODE) {
            refused.warnFor(PeerHost.of(connection), "closing registry connection {}: a frame (code 0x{}) before "
                    + "proving the registry secret (this registry requires one: JUPITER_REGISTRY_SECRET)",
                    connection.remoteAddress(), Integer.toHexString(frame.messageCode()));
            frame.release();
            connection.close();
            return false;
        }
        byte[] body = RegistryAuth.body(frame, RegistryAuth.CLIENT_PROOF, RegistryAuth.NONCE_BYTES
                + RegistryAuth.MAC_BYTES);
        if (body == null) {
            refused.warnFor(PeerHost.of(connection), "closing registry connection {}: a malformed AUTH frame",
                    connection.remoteAddress());
            connection.close();
            return false;
        }
        byte[] clientNonce = RegistryAuth.slice(body, 0, RegistryAuth.NONCE_BYTES);
        byte[] proof = RegistryAuth.slice(body, RegistryAuth.NONCE_BYTES, RegistryAuth.MAC_BYTES);
        if (!RegistryAuth.matches(auth.clientProof(serverNonce, clientNonce), proof)) {
            refused.warnFor(PeerHost.of(connection), "closing registry connection {}: wrong registry secret",
                    connection.remoteAddress());
            connection.close();
            return false;
        }
        authenticated.add(connection);
        connection.write(RegistryAuth.frame(connection.alloc(), RegistryAuth.SERVER_PROOF,
                auth.serverProof(serverNonce, clientNonce)));
        log.debug("registry connection {} authenticated", connection.remoteAddress());
        return true;
    }

    /** Forgets a closed connection. */
    void forget(Connection connection) {
        challenged.remove(connection);
        authenticated.remove(connection);
    }
}
