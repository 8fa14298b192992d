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
     * The response message to one request message of {@code method}.
     *
     * @throws ForeignCallException the call ends with its status (and gRPC code) and no response
     */
    byte[] answer(String method, byte[] request);
}
