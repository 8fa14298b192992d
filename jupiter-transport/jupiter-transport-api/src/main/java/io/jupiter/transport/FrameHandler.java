package io.jupiter.transport;

/**
 * Receives frames and connection events from the transport, on the connection's IO thread. Implementations must
 * return quickly: hand any real work to another thread.
 */
public interface FrameHandler {

    /** A frame arrived. The handler owns it and must {@link Frame#release()} it. Heartbeats are not delivered. */
    void frameReceived(Connection connection, Frame frame);

    /** The connection is open. */
    default void connected(Connection connection) {
    }

    /** The connection closed, for any reason. */
    default void disconnected(Connection connection) {
    }
}
