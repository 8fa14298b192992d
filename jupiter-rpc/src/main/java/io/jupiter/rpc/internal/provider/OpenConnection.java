package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.transport.Connection;

/**
 * What a provider keeps of one open connection, found once per request: what it has admitted, and who its caller
 * is once named (by the caller identifier when it opened, or by the caller token it presented first).
 */
final class OpenConnection {

    /** The connection itself (what its requests answer on). */
    final Connection connection;
    final ConnectionLoad load;
    /** The calls its consumer cancelled that may still wait here. */
    final CancelledCalls cancels = new CancelledCalls();
    /** {@code null} until the caller is named; then for the connection's life. */
    private volatile CallerIdentity caller;

    OpenConnection(Connection connection, ConnectionLoad load, CallerIdentity caller) {
        this.connection = connection;
        this.load = load;
        this.caller = caller;
    }

    /** Whether the caller was named. */
    boolean callerNamed() {
        return caller != null;
    }

    void caller(CallerIdentity named) {
        this.caller = named;
    }

    /** The caller, or {@link CallerIdentity#ANONYMOUS} when nobody named it. */
    CallerIdentity caller() {
        CallerIdentity named = caller;
        return named == null ? CallerIdentity.ANONYMOUS : named;
    }
}
