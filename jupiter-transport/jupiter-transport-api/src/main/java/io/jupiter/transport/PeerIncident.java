package io.jupiter.transport;

/**
 * Why the transport closed a peer's connection, or logged about it: each is counted ({@link PeerIncidents}) and its
 * log line is throttled per peer and incident, so a peer can neither flood the log nor hide another peer's lines.
 */
public enum PeerIncident {
    /** A frame broke the protocol (bad magic, unaccepted message code, body over the cap): closed. */
    MALFORMED_FRAME,
    /** A frame's body was not complete within {@link TransportConfig#bodyTimeoutMillis()}: closed. */
    SLOW_BODY,
    /** More heartbeats than {@link TransportConfig#maxHeartbeatsPerSecond()} within one second: closed. */
    TOO_MANY_HEARTBEATS,
    /** The peer did not read: more than {@link TransportConfig#maxPendingWriteBytes()} waited to be sent: closed. */
    NOT_READING,
    /** Nothing received for {@link TransportConfig#readerIdleMillis()}: closed. */
    IDLE,
    /** A read or write failed (connection reset, broken pipe): closed. */
    CONNECTION_ERROR,
    /** Refused on accept: beyond {@link TransportConfig#maxConnections()} or its per-address limit. */
    REFUSED,
    /** The frame handler threw while handling this peer's connection or frame (logged; the connection stays). */
    HANDLER_ERROR
}
