package io.jupiter.rpc.security;

import java.util.Map;

/**
 * Names the caller of a provider's connection by the token its client presented, once, as the connection's first
 * frame ({@link io.jupiter.rpc.JupiterClient.Builder#callerToken(String)}). Set with
 * {@link io.jupiter.rpc.JupiterServer.Builder#tokenAuthenticator}; then a connection whose first frame is not a
 * token this authenticator accepts has its first request answered {@code BAD_REQUEST} ("caller token missing" or
 * "caller token refused"), none of its requests read, and is closed. The identity it returns is the connection's
 * {@link CallerIdentity}, seen by the {@link Authorizer} and by interceptors as
 * {@link io.jupiter.rpc.filter.Invocation#caller()}.
 *
 * <p>A token is a secret: it travels in clear text unless the transport is TLS. It is never logged, never sent back
 * and never part of an exception a peer sees; an authenticator should not put it in its exceptions either.
 *
 * <p>Runs on the connection's IO thread, once per connection: must be fast, thread-safe, and must not block.
 * {@link #of(Map)} is the built-in one.
 */
@FunctionalInterface
public interface TokenAuthenticator {

    /**
     * The caller {@code token} names, or {@code null} (or {@link CallerIdentity#ANONYMOUS}) to refuse it; an
     * exception refuses it too.
     */
    CallerIdentity authenticate(String token);

    /**
     * Accepts exactly the given tokens, each naming its caller ({@code token -> caller name}). A presented token is
     * compared with every known one in constant time (as SHA-256 digests, with {@link
     * java.security.MessageDigest#isEqual}), so neither which token matched nor how much of one did shows in the
     * time taken. The map is copied.
     *
     * @throws IllegalArgumentException if the map is empty, or a token or name is blank, or a token is longer than
     *                                  the 4,096 UTF-8 bytes a client may send
     */
    static TokenAuthenticator of(Map<String, String> callersByToken) {
        return new FixedTokens(callersByToken);
    }
}
