package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.RefusalLog;
import io.jupiter.rpc.internal.stream.ProviderStreams;
import io.jupiter.rpc.internal.stream.StreamOpener;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;

/**
 * Where a stream frame of a connection whose caller is named (caller token included) goes: to the server's
 * {@link ProviderStreams}, whose opens come back through the provider's chain ({@link StreamOpener}), or, while no
 * registered service has a stream method, nowhere: the connection is closed, as 1.3.1 closes one that sends a
 * message code it does not know. Also whether connections hear the streams' announcement.
 */
final class StreamGate {


    final ProviderStreams streams;
    /** A peer can send a refused stream frame on every connection it opens: the server's refusal lines. */
    private final RefusalLog refused;
    /** Whether a registered service has a stream method: then each connection hears the announcement first. */
    private volatile boolean servesStreams;

    StreamGate(StreamOpener opener, RefusalLog refused) {
        this.streams = new ProviderStreams(opener, refused);
        this.refused = refused;
    }

    /** Whether connections hear the announcement and stream frames are served. */
    boolean servesStreams() {
        return servesStreams;
    }

    /** A service was registered: returns {@code true} the first time one has a stream method. */
    boolean registered(ServiceEntry entry) {
        if (!servesStreams && entry.hasStreamMethod()) {
            servesStreams = true;
            return true;
        }
        return false;
    }

    /** A stream frame, on the connection's IO thread, once the caller token let it through. Takes ownership. */
    void received(Connection connection, OpenConnection open, Frame frame) {
        if (!servesStreams) {
            // It announced none, so no consumer of ours sends one.
            refused.refused(connection, RefusalLog.Cause.STREAMS_NOT_SERVED,
                    "closing {}: a stream frame (message code 0x{}) to a provider that serves no stream method",
                    connection.remoteAddress(), Integer.toHexString(frame.messageCode()));
            frame.release();
            connection.close();
            return;
        }
        streams.received(connection, open == null ? CallerIdentity.ANONYMOUS : open.caller(), frame);
    }
}
