package io.jupiter.rpc.internal.consumer;

import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells a provider that a call's caller stopped waiting (timed out, cancelled, interrupted, or a hedge won), so that
 * it drops the call if it has not started (issue #35). Only a provider of ours understands the cancel frame and a
 * 1.3.1 one would close the connection on it, so each connection is asked first: after its first response (so the
 * caller token, when the provider asks for one, has been accepted) the client writes a heartbeat with status
 * {@link ProtocolHeader#CALL_CANCELS_ANNOUNCED}; a provider of ours answers with the same, and only then are
 * cancels sent on that connection. A 1.3.1 provider drops the question as it drops every heartbeat.
 */
final class CallCancels {

    /** Per open connection that was asked: whether its provider answered (it takes cancels). */
    private final ConcurrentHashMap<Connection, Boolean> providers = new ConcurrentHashMap<>();
    /** Whether providers are asked, and told ({@code cancelCalls}); off: the client's bytes are 1.3.1's. */
    private volatile boolean enabled;

    /** @param enabled whether to ask providers and tell those that answer ({@code -Djupiter.rpc.consumer.cancel}) */
    CallCancels(boolean enabled) {
        this.enabled = enabled;
    }

    /** Sets whether providers are asked from now on (the client's builder does, before its first call). */
    void enabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** A response arrived on {@code connection} (IO thread): the first one asks its provider about cancels. */
    void responded(Connection connection) {
        if (enabled && !providers.containsKey(connection) && providers.putIfAbsent(connection, Boolean.FALSE) == null) {
            connection.write(Frames.announcement(connection.alloc(), ProtocolHeader.CALL_CANCELS_ANNOUNCED));
        }
    }

    /** A heartbeat arrived (IO thread): the provider's answer, if it is one to our question. Leaves the frame. */
    void heard(Connection connection, Frame frame) {
        if (frame.messageCode() == ProtocolHeader.HEARTBEAT
                && (frame.status() & ProtocolHeader.CALL_CANCELS_ANNOUNCED) != 0) {
            providers.replace(connection, Boolean.FALSE, Boolean.TRUE);
        }
    }

    /** Whether the provider behind {@code connection} said it takes cancels. */
    boolean takesCancels(Connection connection) {
        return providers.get(connection) == Boolean.TRUE;
    }

    /** The connection closed. */
    void disconnected(Connection connection) {
        providers.remove(connection);
    }

    /** The caller of {@code call} stopped waiting: tells its provider, if it takes cancels. From any thread. */
    void cancel(PendingCall call) {
        Connection connection = call.connection;
        if (takesCancels(connection) && connection.isActive()) {
            connection.write(Frames.callCancel(connection.alloc(), call.id));
        }
    }
}
