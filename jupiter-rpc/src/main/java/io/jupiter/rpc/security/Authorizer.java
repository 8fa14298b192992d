package io.jupiter.rpc.security;

import io.jupiter.rpc.ServiceKey;

/**
 * Decides whether a caller may call a method, after only the request's envelope was read: the service, the method
 * name and the connection's {@link CallerIdentity}, never the arguments, which are not read for a refused request.
 * A refusal is answered {@code BAD_REQUEST} naming the caller, the service and the method; the connection stays
 * open. Set with {@link io.jupiter.rpc.JupiterServer.Builder#authorizer}; {@link AuthorizationRules} is the
 * built-in one.
 *
 * <p>Runs on the thread that reads the request, once per request: must be fast, thread-safe, and must not block.
 */
@FunctionalInterface
public interface Authorizer {

    /** Whether {@code caller} may call {@code methodName} of {@code service}. */
    boolean permits(CallerIdentity caller, ServiceKey service, String methodName);
}
