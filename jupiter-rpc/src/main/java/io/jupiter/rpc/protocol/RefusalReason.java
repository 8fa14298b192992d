package io.jupiter.rpc.protocol;

/**
 * Why a provider refused a request, where its 1.3.1 status cannot say it: 1.3.1 has no status for an unknown or a
 * forbidden caller, so the provider answers both {@code BAD_REQUEST} with a text, byte for byte as before. A
 * {@link ServerProtocol} reads the reason beside the answer ({@link RefusalReasons}) and answers its own code for it,
 * never parsing the text.
 */
public enum RefusalReason {

    /**
     * The caller is not known: its connection presented no caller token, or one the server's
     * {@code TokenAuthenticator} refused (HTTP {@code 401}, gRPC {@code UNAUTHENTICATED}).
     */
    UNAUTHENTICATED,

    /** The caller is known, and the server's {@code Authorizer} does not permit it the method (HTTP {@code 403},
     * gRPC {@code PERMISSION_DENIED}). */
    NOT_AUTHORIZED
}
