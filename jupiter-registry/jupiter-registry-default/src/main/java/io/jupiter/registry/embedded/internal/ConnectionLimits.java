package io.jupiter.registry.embedded.internal;

import io.jupiter.common.LogText;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.internal.RegistryState.Peer;
import io.jupiter.registry.embedded.internal.RegistryState.Publication;
import io.jupiter.transport.Connection;

/**
 * The caps on what one connection may hold at the registry server: publications and subscriptions. What goes
 * beyond is refused with one WARN line (the caller does not acknowledge it). The cap on pushes awaiting an ACK is
 * {@link PushOutbox}'s.
 */
final class ConnectionLimits {

    private final int maxPublications;
    private final int maxSubscriptions;
    private final ThrottledWarning refused;

    ConnectionLimits(int maxPublications, int maxSubscriptions, ThrottledWarning refused) {
        this.maxPublications = maxPublications;
        this.maxSubscriptions = maxSubscriptions;
        this.refused = refused;
    }

    /** Whether {@code peer} may subscribe to {@code service}: it already does, or it has room for one more. */
    boolean allowsSubscription(Connection connection, Peer peer, ServiceMeta service) {
        if (!peer.subscribed.contains(service) && peer.subscribed.size() >= maxSubscriptions) {
            refused.warnFor(PeerHost.of(connection), "refusing {}'s subscription to {}: it has {} already "
                    + "(the limit per connection)", connection.remoteAddress(), LogText.of(service),
                    maxSubscriptions);
            return false;
        }
        return true;
    }

    /** Whether {@code peer} may publish {@code meta}: it already does, or it has room for one more. */
    boolean allowsPublication(Connection connection, Peer peer, RegisterMeta meta) {
        if (!peer.published.containsKey(Publication.of(meta)) && peer.published.size() >= maxPublications) {
            refused.warnFor(PeerHost.of(connection), "refusing {}'s publication of {}: it has {} already (the "
                    + "limit per connection)", connection.remoteAddress(), LogText.of(meta), maxPublications);
            return false;
        }
        return true;
    }
}
