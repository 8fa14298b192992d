package io.jupiter.transport.netty.internal;

import io.jupiter.common.ThrottledWarning;
import io.jupiter.transport.PeerIncident;
import io.jupiter.transport.PeerIncidents;
import io.netty.channel.Channel;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The one place where the transport reports what a peer did: closes a connection for a {@link PeerIncident} with one
 * log line, at most one per connection and at most one a second per peer (its IP address) and incident, and counts
 * every incident and every line not printed. One instance per acceptor or connector, reached from each of its
 * channels ({@link #of(Channel)}).
 */
public final class ConnectionIncidents implements PeerIncidents {

    private static final Logger logger = LoggerFactory.getLogger(ConnectionIncidents.class);
    private static final AttributeKey<ConnectionIncidents> KEY =
            AttributeKey.valueOf(ConnectionIncidents.class, "incidents");
    private static final PeerIncident[] INCIDENTS = PeerIncident.values();

    private final LongAdder[] counts = new LongAdder[INCIDENTS.length];
    private final ThrottledWarning warnings = new ThrottledWarning(logger, 1, TimeUnit.SECONDS, Level.WARN);
    private final ThrottledWarning notices = new ThrottledWarning(logger, 1, TimeUnit.SECONDS, Level.INFO);
    /** Lines not printed because the connection had already been reported closed. */
    private final LongAdder fallout = new LongAdder();

    /** Counts from zero. */
    public ConnectionIncidents() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** Makes {@code incidents} the one {@code channel} reports to; call before the channel is used. */
    public static void attach(Channel channel, ConnectionIncidents incidents) {
        channel.attr(KEY).set(incidents);
    }

    /** The incidents {@code channel} reports to: its acceptor's or connector's, else (none attached) its own. */
    public static ConnectionIncidents of(Channel channel) {
        Attribute<ConnectionIncidents> attribute = channel.attr(KEY);
        ConnectionIncidents incidents = attribute.get();
        if (incidents == null) {
            ConnectionIncidents own = new ConnectionIncidents();
            incidents = attribute.setIfAbsent(own);
            if (incidents == null) {
                incidents = own;
            }
        }
        return incidents;
    }

    /**
     * Counts {@code incident}, logs {@code message} (SLF4J format) unless this connection was already reported closed
     * or the line is throttled, and closes {@code channel}.
     */
    public void close(Channel channel, PeerIncident incident, String message, Object... args) {
        counts[incident.ordinal()].increment();
        if (NettyConnection.of(channel).firstCloseReport()) {
            line(incident).logFor(peer(channel), incident, message, args);
        } else {
            fallout.increment();
        }
        channel.close();
    }

    /**
     * A failure on {@code channel} that closes it ({@link PeerIncident#CONNECTION_ERROR}): reported as
     * {@link #close} does while the channel is open; once it is closed, only counted as a line not printed (each
     * frame that was waiting to be written fails on its own).
     */
    public void failed(Channel channel, String message, Object... args) {
        if (channel.isOpen()) {
            close(channel, PeerIncident.CONNECTION_ERROR, message, args);
        } else {
            fallout.increment();
        }
    }

    /** Counts {@code incident} and logs {@code message}, throttled, without closing anything. */
    public void log(Channel channel, PeerIncident incident, String message, Object... args) {
        counts[incident.ordinal()].increment();
        line(incident).logFor(peer(channel), incident, message, args);
    }

    @Override
    public long count(PeerIncident incident) {
        return counts[incident.ordinal()].sum();
    }

    @Override
    public long suppressedLogLines() {
        return warnings.suppressed() + notices.suppressed() + fallout.sum();
    }

    private ThrottledWarning line(PeerIncident incident) {
        return incident == PeerIncident.IDLE || incident == PeerIncident.CONNECTION_ERROR ? notices : warnings;
    }

    /** The key a peer's lines are throttled by: its IP address (all its ports are one peer), else its name. */
    static Object peer(Channel channel) {
        return channel.remoteAddress() instanceof InetSocketAddress remote && remote.getAddress() != null
                ? remote.getAddress() : Transports.peer(channel);
    }
}
