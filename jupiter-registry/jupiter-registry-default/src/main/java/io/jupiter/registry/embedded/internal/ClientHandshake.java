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

/**
 * The registry client's side of {@link RegistryAuth}'s handshake: answers the registry's challenge, checks the
 * registry's proof, and closes a connection whose registry sends anything else first, proves a wrong secret, or
 * does not finish within {@link RegistryAuth#DEFAULT_TIMEOUT_MILLIS}, with a WARN line.
 *
 * <p>Called on the IO threads; the timeout runs on the given scheduler.
 */
final class ClientHandshake {

    private final RegistryAuth auth;
    private final ScheduledExecutorService timer;
    private final ThrottledWarning refused;
    /** Handshakes under way; then the connections that passed. */
    private final Map<Connection, Step> handshakes = new ConcurrentHashMap<>();
    private final Set<Connection> authenticated = ConcurrentHashMap.newKeySet();

    ClientHandshake(RegistryAuth auth, ScheduledExecutorService timer, ThrottledWarning refused) {
        this.auth = auth;
        this.timer = timer;
        this.refused = refused;
    }

    /** Waits for the registry's challenge on a new connection, within the timeout. */
    void start(Connection connection) {
        handshakes.put(connection, new Step());
        try {
            timer.schedule(() -> {
                Step step = handshakes.remove(connection);
                if (step != null && connection.isActive()) {
                    refused.warnFor(connection.remoteAddress(), "closing registry connection {}: the handshake did "
                            + "not finish within {} ms (does the registry have the secret configured?)",
                            connection.remoteAddress(), RegistryAuth.DEFAULT_TIMEOUT_MILLIS);
                    connection.close();
                }
            }, RegistryAuth.DEFAULT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            connection.close();
        }
    }

    /** Whether the registry on this connection proved the secret. */
    boolean passed(Connection connection) {
        return authenticated.contains(connection);
    }

    /**
     * One step of the handshake with a frame from a connection that has not passed yet; releases the frame.
     *
     * @return whether the connection passed with this frame (the registry's proof was right)
     */
    boolean receive(Connection connection, Frame frame) {
        Step step = handshakes.get(connection);
        if (step == null) {
            // Timed out, closing.
            frame.release();
            connection.close();
            return false;
        }
        if (frame.messageCode() != RegistryFrames.AUTH_CODE) {
            handshakes.remove(connection);
            refused.warnFor(connection.remoteAddress(), "closing registry connection {}: it sent a message (code "
                    + "0x{}) before proving the secret (a registry without the secret configured?)",
                    connection.remoteAddress(), Integer.toHexString(frame.messageCode()));
            frame.release();
            connection.close();
            return false;
        }
        if (step.expectedProof == null) {
            byte[] serverNonce = RegistryAuth.body(frame, RegistryAuth.CHALLENGE, RegistryAuth.NONCE_BYTES);
            if (serverNonce == null) {
                fail(connection, "a malformed challenge");
                return false;
            }
            byte[] clientNonce = RegistryAuth.nonce();
            step.expectedProof = auth.serverProof(serverNonce, clientNonce);
            connection.write(RegistryAuth.frame(connection.alloc(), RegistryAuth.CLIENT_PROOF, clientNonce,
                    auth.clientProof(serverNonce, clientNonce)));
            return false;
        }
        byte[] proof = RegistryAuth.body(frame, RegistryAuth.SERVER_PROOF, RegistryAuth.MAC_BYTES);
        if (proof == null || !RegistryAuth.matches(step.expectedProof, proof)) {
            fail(connection, "it did not prove the secret (a different secret, or not our registry)");
            return false;
        }
        handshakes.remove(connection);
        authenticated.add(connection);
        return true;
    }

    /**
     * Forgets a closed connection; warns when the registry closed it after our proof (a different secret on each
     * side), unless {@code clientClosed}.
     */
    void forget(Connection connection, boolean clientClosed) {
        Step step = handshakes.remove(connection);
        authenticated.remove(connection);
        if (step != null && step.expectedProof != null && !clientClosed) {
            refused.warnFor(connection.remoteAddress(), "registry {} closed the connection while checking the secret "
                    + "(is it the same on both sides?)", connection.remoteAddress());
        }
    }

    private void fail(Connection connection, String reason) {
        handshakes.remove(connection);
        refused.warnFor(connection.remoteAddress(), "closing registry connection {}: {}", connection.remoteAddress(),
                reason);
        connection.close();
    }

    /** A handshake under way: the registry's proof expected once the client answered the challenge. */
    private static final class Step {
        volatile byte[] expectedProof;
    }
}
