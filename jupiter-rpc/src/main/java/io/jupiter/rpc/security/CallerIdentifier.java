package io.jupiter.rpc.security;

import io.jupiter.transport.Connection;

/**
 * Establishes the {@link CallerIdentity} of a provider's connection, once, when it opens (on its IO thread, before
 * any of its requests is read). Set with {@link io.jupiter.rpc.JupiterServer.Builder#callerIdentifier}; the default
 * ({@link #ANONYMOUS}) knows nobody. A transport that authenticates its peer (mutual TLS) is where an identifier
 * takes a name from, e.g. the client certificate's subject. Callers without a certificate can be named by a token
 * instead ({@link TokenAuthenticator}); a server uses one or the other.
 *
 * <p>Must be fast and must not block: it runs on the IO thread. An exception closes the connection.
 */
@FunctionalInterface
public interface CallerIdentifier {

    /** Every caller is {@link CallerIdentity#ANONYMOUS}. */
    CallerIdentifier ANONYMOUS = connection -> CallerIdentity.ANONYMOUS;

    /**
     * Names a caller by the client certificate it presented under mutual TLS: the certificate subject's common name
     * ({@code CN}), or the whole subject (RFC 2253) when it has none; {@link CallerIdentity#ANONYMOUS} without a
     * certificate. The handshake already verified the certificate against the server's trusted CAs.
     */
    CallerIdentifier CLIENT_CERTIFICATE = ClientCertificates::identify;

    /** Who is on the other end of {@code connection}; never {@code null}. */
    CallerIdentity identify(Connection connection);
}
