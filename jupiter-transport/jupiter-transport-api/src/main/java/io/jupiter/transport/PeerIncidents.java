package io.jupiter.transport;

/**
 * The counts of an acceptor's (or connector's) {@link PeerIncident}s since it was created, and the log lines they
 * did not print (throttled, or the fallout of a connection already closed), for metrics. Readable from any thread.
 */
public interface PeerIncidents {

    /** Counts nothing: for transports that keep no counts. */
    PeerIncidents NONE = new PeerIncidents() {
        @Override
        public long count(PeerIncident incident) {
            return 0;
        }

        @Override
        public long suppressedLogLines() {
            return 0;
        }
    };

    /** How many times {@code incident} happened. */
    long count(PeerIncident incident);

    /**
     * Log lines not printed: a line of the same peer and incident was printed less than a second before, or the
     * connection was already closed (a write that fails on a closing connection, once per frame, prints nothing).
     */
    long suppressedLogLines();
}
