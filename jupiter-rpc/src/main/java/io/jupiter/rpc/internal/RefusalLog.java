package io.jupiter.rpc.internal;

import io.jupiter.common.ThrottledWarning;
import io.jupiter.transport.Connection;
import io.jupiter.transport.TransportAddresses;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log lines of the refusals a peer causes on a provider, one for each server: at most one line per interval
 * ({@code refusalLogIntervalMillis}, a minute by default) for each peer IP and {@link Cause}, the next line saying how
 * many were dropped meanwhile ({@link ThrottledWarning}: a bounded table of peers). The refusals themselves are
 * counted where they are answered (the rejections of the server's metrics), whether their line is logged or not.
 */
public final class RefusalLog {

    /** Why a peer was refused: each has its own line per peer and interval. */
    public enum Cause {
        /** Its connection presented no caller token in time. */
        NO_TOKEN_IN_TIME,
        /** Its connection's first frame is not a caller token. */
        FIRST_FRAME_NOT_A_TOKEN,
        /** Its caller token was refused. */
        TOKEN_REFUSED,
        /** A call of a method its caller may not call. */
        CALL_NOT_AUTHORIZED,
        /** A stream open of a method its caller may not call. */
        STREAM_NOT_AUTHORIZED,
        /** A request or open whose body cannot be read. */
        UNREADABLE,
        /** A request or open whose serializer the provider does not accept. */
        SERIALIZER_REFUSED,
        /** A request or open that names another service or method after the one it was authorized for. */
        ENVELOPE_CHANGED,
        /** A stream frame to a provider that serves no stream method. */
        STREAMS_NOT_SERVED,
        /** A frame a provider does not accept. */
        BAD_FRAME,
        /** A stream open that failed in the provider. */
        OPEN_FAILED
    }

    private static final Logger log = LoggerFactory.getLogger(RefusalLog.class);

    private final ThrottledWarning lines;

    /** A log of at most one line per {@code intervalMillis}, peer IP and cause. */
    public RefusalLog(long intervalMillis) {
        this.lines = new ThrottledWarning(log, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /** Logs {@code message} (SLF4J format) unless a line of {@code connection}'s peer IP and {@code cause} was. */
    public void refused(Connection connection, Cause cause, String message, Object... args) {
        lines.logFor(TransportAddresses.ipOf(connection.remoteAddress()), cause, message, args);
    }

    /** Lines logged so far. */
    public long logged() {
        return lines.logged();
    }

    /** Lines dropped so far (a line of the same peer and cause was logged within the interval). */
    public long suppressed() {
        return lines.suppressed();
    }
}
