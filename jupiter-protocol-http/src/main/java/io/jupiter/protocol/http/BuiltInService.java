package io.jupiter.protocol.http;

/**
 * A gRPC service this module answers itself, on the connection's IO thread, without the provider chain (the health
 * and server-reflection services): each request message of a call gets one response message, and the call ends
 * {@code OK} when the client half-closes.
 */
interface BuiltInService {

    /** The full gRPC service name, e.g. {@code grpc.health.v1.Health}. */
    String name();

    /** Whether {@code method} is one of this service's methods. */
    boolean serves(String method);

    /**
     * Whether a caller must be known to call it: on a server with caller tokens, only a connection whose token the
     * server accepted may (reflection, which lists the services); {@code false}: anyone may (health, which load
     * balancers ask without credentials).
     */
    default boolean needsCaller() {
        return false;
    }

    /**
     * The response message to one request message of {@code method}.
     *
     * @throws ForeignCallException the call ends with its status (and gRPC code) and no response
     */
    byte[] answer(String method, byte[] request);
}
