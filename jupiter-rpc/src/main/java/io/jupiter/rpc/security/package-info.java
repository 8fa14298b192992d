/**
 * Who may call what: the {@link io.jupiter.rpc.security.CallerIdentity} of each provider connection, established
 * once by a {@link io.jupiter.rpc.security.CallerIdentifier} or from the caller token the client presents first
 * ({@link io.jupiter.rpc.security.TokenAuthenticator}), and the {@link io.jupiter.rpc.security.Authorizer}
 * that decides per service and method after only the request's envelope was read, before any argument is.
 */
package io.jupiter.rpc.security;
