package io.jupiter.registry.embedded.internal;

import io.jupiter.common.LogText;
import io.jupiter.common.NamedThreadFactory;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.internal.RegistryState.Peer;
import io.jupiter.registry.embedded.internal.RegistryState.Publication;
import io.jupiter.registry.embedded.internal.RegistryState.Published;
import io.jupiter.registry.embedded.internal.RegistryState.ServiceState;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry server's logic. The IO threads only decode; all state lives on one worker thread, so it needs no
 * locks (registry traffic is small).
 *
 * <ul>
 *   <li>With a secret, a connection must pass {@link RegistryAuth}'s handshake first: any other frame before it, a
 *       wrong proof, or no proof within the timeout closes it with one WARN line.</li>
 *   <li>PUBLISH from a provider: the host is filled in from the connection when the provider left it empty (or
 *       gave a wildcard address), as 1.3.1 does; any other host must be the connection's own remote address unless
 *       the policy allows any; ACK; the service's version goes up; the change is pushed to every subscriber. A
 *       publication refused (foreign host, too many) is not acknowledged.</li>
 *   <li>PUBLISH_CANCEL: only of a publication made on the same connection; ACKed either way, ignored (one WARN
 *       line) when it is not the peer's own.</li>
 *   <li>SUBSCRIBE: the full provider list is pushed (with the current version), then the ACK.</li>
 *   <li>A provider's connection closes: its services are cancelled as above, then every subscriber connection gets
 *       an OFFLINE_NOTICE for each of its addresses that no other connection still publishes.</li>
 *   <li>Per connection, publications, subscriptions and pushes awaiting an ACK are capped ({@link Policy}): a
 *       publication or subscription beyond the cap is refused (not acknowledged), a subscriber with too many pushes
 *       unacknowledged is closed; each with one WARN line.</li>
 *   <li>A push not acknowledged within the resend interval is sent again; if the service changed since, the current
 *       full list goes instead, so a subscriber always converges.</li>
 * </ul>
 *
 * <p>This class decides; the pieces it uses each do one job: {@link ServerHandshake} (the secret),
 * {@link RegistryState} (what is known), {@link ConnectionLimits} (the caps), {@link PushOutbox} (ACKs and resends).
 */
public final class RegistryServerHandler implements FrameHandler, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RegistryServerHandler.class);
    /** Warnings any peer can trigger at will: at most one line a second per peer. */
    private final ThrottledWarning malformed = new ThrottledWarning(log, 1, TimeUnit.SECONDS);
    /** Refusals (handshake, ownership, hosts, caps): at most one line a second per peer. */
    private final ThrottledWarning refused = new ThrottledWarning(log, 1, TimeUnit.SECONDS);

    private final ScheduledExecutorService worker;
    private final Policy policy;
    /** The secret's handshake, or {@code null} without a secret. */
    private final ServerHandshake handshake;
    // Worker-confined.
    private final RegistryState state = new RegistryState();
    private final PushOutbox outbox;
    private final ConnectionLimits limits;

    /**
     * What a registry enforces.
     *
     * @param auth              the shared-secret handshake, or {@code null} for none (1.3.1's wire)
     * @param anyPublishedHost  whether a publication may name a host other than the connection's remote address
     * @param maxPublications   publications one connection may hold at once
     * @param maxSubscriptions  services one connection may subscribe to
     * @param maxUnackedPushes  pushes to one connection that may await their ACK at once
     * @param authTimeoutMillis how long a connection has to pass the handshake
     */
    public record Policy(RegistryAuth auth, boolean anyPublishedHost, int maxPublications, int maxSubscriptions,
                         int maxUnackedPushes, long authTimeoutMillis) {
    }

    public RegistryServerHandler(long resendMillis, Policy policy) {
        this.policy = policy;
        this.outbox = new PushOutbox(TimeUnit.MILLISECONDS.toNanos(resendMillis), policy.maxUnackedPushes(),
                refused);
        this.limits = new ConnectionLimits(policy.maxPublications(), policy.maxSubscriptions(), refused);
        this.worker = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("jupiter-registry-server",
                true));
        long scan = Math.max(10, Math.min(300, resendMillis / 4));
        this.handshake = policy.auth() == null ? null
                : new ServerHandshake(policy.auth(), policy.authTimeoutMillis(), worker, refused);
        worker.scheduleWithFixedDelay(this::resendExpired, scan, scan, TimeUnit.MILLISECONDS);
    }

    @Override
    public void connected(Connection connection) {
        if (handshake == null) {
            run(() -> state.peer(connection));
            return;
        }
        handshake.challenge(connection);
    }

    @Override
    public void disconnected(Connection connection) {
        if (handshake != null) {
            handshake.forget(connection);
        }
        run(() -> dropPeer(connection));
    }

    @Override
    public void frameReceived(Connection connection, Frame frame) {
        if (handshake != null && !handshake.passed(connection)) {
            if (handshake.receive(connection, frame)) {
                run(() -> state.peer(connection));
            }
            return;
        }
        if (frame.messageCode() == RegistryFrames.AUTH_CODE) {
            frame.release();
            refused.warnFor(PeerHost.of(connection), "closing registry connection {}: an unexpected AUTH frame ({})",
                    connection.remoteAddress(), policy.auth() == null ? "this registry has no secret configured"
                            : "already authenticated");
            connection.close();
            return;
        }
        if (frame.messageCode() == RegistryFrames.ACK) {
            long sequence = frame.id();
            frame.release();
            run(() -> outbox.acked(connection, sequence));
            return;
        }
        RegistryMessage message;
        try {
            message = RegistryFrames.read(frame);
        } catch (RegistryCodecException e) {
            malformed.warnFor(PeerHost.of(connection), "closing registry connection {}: unreadable message "
                    + "(code 0x{}): {}",
                    connection.remoteAddress(), Integer.toHexString(frame.messageCode()), LogText.of(e.getMessage()));
            connection.close();
            return;
        }
        run(() -> handle(connection, message));
    }

    /** The providers of a service known now (for monitoring and tests). */
    public List<RegisterMeta> providers(ServiceMeta service) {
        return query(() -> state.providers(service));
    }

    /** Every provider of every service known now (for monitoring). */
    public List<RegisterMeta> allProviders() {
        return query(state::allProviders);
    }

    /** The remote addresses of the connections subscribed to at least one service now (for monitoring). */
    public List<InetSocketAddress> subscribers() {
        return query(state::subscriberAddresses);
    }

    /** Reads the state on the worker, which alone touches it; empty once the server is closed. */
    private <T> List<T> query(Callable<List<T>> read) {
        try {
            return worker.submit(read).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (RejectedExecutionException e) {
            return List.of();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private void handle(Connection connection, RegistryMessage message) {
        if (!connection.isActive()) {
            return;
        }
        Peer peer = state.peer(connection);
        Object data = message.data();
        switch (message.messageCode()) {
            case RegistryFrames.PUBLISH_SERVICE -> {
                if (!(data instanceof RegisterMeta meta)) {
                    malformed.warnFor(PeerHost.of(connection), "ignoring a PUBLISH without a RegisterMeta from {}",
                            connection.remoteAddress());
                    return;
                }
                publish(connection, peer, message.sequence(), meta);
            }
            case RegistryFrames.PUBLISH_CANCEL_SERVICE -> {
                if (!(data instanceof RegisterMeta meta)) {
                    malformed.warnFor(PeerHost.of(connection), "ignoring a PUBLISH_CANCEL without a RegisterMeta "
                            + "from {}",
                            connection.remoteAddress());
                    return;
                }
                // Acknowledged whatever happens, so the peer stops resending it.
                RegistryFrames.ack(connection, message.sequence());
                RegisterMeta filled = withHost(connection, meta);
                RegisterMeta own = filled == null ? null : peer.published.remove(Publication.of(filled));
                if (own == null) {
                    refused.warnFor(PeerHost.of(connection), "ignoring {}'s withdrawal of {}: not published on this "
                            + "connection", connection.remoteAddress(), LogText.of(meta));
                    return;
                }
                cancel(own, connection);
            }
            case RegistryFrames.SUBSCRIBE_SERVICE -> {
                if (!(data instanceof ServiceMeta service)) {
                    malformed.warnFor(PeerHost.of(connection), "ignoring a SUBSCRIBE without a ServiceMeta from {}",
                            connection.remoteAddress());
                    return;
                }
                if (!limits.allowsSubscription(connection, peer, service)) {
                    return;
                }
                ServiceState serviceState = state.serviceOrNew(service);
                serviceState.subscribers.add(connection);
                peer.subscribed.add(service);
                pushFullList(connection, service, serviceState);
                RegistryFrames.ack(connection, message.sequence());
            }
            default -> log.debug("ignoring registry message code 0x{} from {}",
                    Integer.toHexString(message.messageCode()), connection.remoteAddress());
        }
    }

    private void publish(Connection connection, Peer peer, long sequence, RegisterMeta meta) {
        RegisterMeta filled = withHost(connection, meta);
        if (filled == null) {
            refused.warnFor(PeerHost.of(connection), "refusing {}'s publication of {}: its host is not the address it "
                    + "connects from (publish an empty host, or allow any with "
                    + "RegistryServer.Builder.allowAnyPublishedHost)", connection.remoteAddress(), LogText.of(meta));
            return;
        }
        if (!limits.allowsPublication(connection, peer, filled)) {
            return;
        }
        Publication key = Publication.of(filled);
        RegistryFrames.ack(connection, sequence);
        ServiceState serviceState = state.serviceOrNew(filled.service());
        Published previous = serviceState.providers.put(filled.address(), new Published(filled, connection));
        if (previous != null && previous.owner() != connection) {
            // The same address and service from another connection (from the same host, unless any host is
            // allowed): a provider that restarted before the registry noticed its old connection drop.
            Peer former = state.existingPeer(previous.owner());
            if (former != null) {
                former.published.remove(key);
            }
            log.info("{} now publishes {}, before published by {}", connection.remoteAddress(), LogText.of(filled),
                    previous.owner().remoteAddress());
        }
        peer.published.put(key, filled);
        if (previous == null || !filled.equals(previous.meta())) {
            serviceState.version++;
            log.info("published {}", LogText.of(filled));
            pushChange(filled.service(), serviceState, RegistryFrames.PUBLISH_SERVICE, filled);
        }
    }

    /** Withdraws a publication if {@code owner} still holds it. */
    private void cancel(RegisterMeta meta, Connection owner) {
        ServiceState serviceState = state.service(meta.service());
        if (serviceState == null) {
            return;
        }
        Published current = serviceState.providers.get(meta.address());
        if (current != null && current.owner() == owner) {
            serviceState.providers.remove(meta.address());
            serviceState.version++;
            log.info("withdrew {}", LogText.of(current.meta()));
            pushChange(meta.service(), serviceState, RegistryFrames.PUBLISH_CANCEL_SERVICE, current.meta());
            state.forgetIfUnused(meta.service(), serviceState);
        }
    }

    private void dropPeer(Connection connection) {
        Peer peer = state.removePeer(connection);
        outbox.forget(connection);
        if (peer == null) {
            return;
        }
        for (ServiceMeta service : peer.subscribed) {
            ServiceState serviceState = state.service(service);
            if (serviceState != null) {
                serviceState.subscribers.remove(connection);
                state.forgetIfUnused(service, serviceState);
            }
        }
        Set<ProviderAddress> offline = new LinkedHashSet<>();
        for (RegisterMeta meta : peer.published.values()) {
            cancel(meta, connection);
            offline.add(meta.address());
        }
        for (ProviderAddress address : offline) {
            if (state.stillPublished(address)) {
                // Another connection publishes from this address now: it is not offline.
                continue;
            }
            log.info("provider {} went offline", LogText.of(address));
            for (Connection subscriber : state.subscriberConnections()) {
                outbox.send(subscriber, outbox.message(RegistryFrames.OFFLINE_NOTICE, 0, address), false);
            }
        }
    }

    private void pushChange(ServiceMeta service, ServiceState serviceState, byte code, RegisterMeta meta) {
        for (Connection subscriber : serviceState.subscribers) {
            outbox.send(subscriber, outbox.message(code, serviceState.version, new PushData(service, meta)), true);
        }
    }

    private void pushFullList(Connection subscriber, ServiceMeta service, ServiceState serviceState) {
        List<RegisterMeta> all = serviceState.metas();
        outbox.send(subscriber, outbox.message(RegistryFrames.PUBLISH_SERVICE, serviceState.version,
                new PushData(service, all)), true);
    }

    private void resendExpired() {
        try {
            for (Unacked.Entry entry : outbox.removeExpired()) {
                Connection connection = entry.connection();
                RegistryMessage message = entry.message();
                if (!connection.isActive() || !(message.data() instanceof PushData push)) {
                    continue;
                }
                ServiceState serviceState = state.service(push.service());
                if (serviceState == null || !serviceState.subscribers.contains(connection)) {
                    continue;
                }
                if (serviceState.version > message.version()) {
                    // Stale: the subscriber would drop it; the current full list replaces it.
                    pushFullList(connection, push.service(), serviceState);
                } else {
                    log.debug("resending registry message {} to {}", message.sequence(), connection.remoteAddress());
                    outbox.send(connection, message, true);
                }
            }
        } catch (RuntimeException e) {
            log.warn("registry resend failed", e);
        }
    }

    /**
     * The publication with its host: the connection's remote address when the peer gave none or a wildcard (as
     * 1.3.1 providers do); the peer's own when it is that address, or any is allowed; {@code null} otherwise. Host
     * names are not resolved: a publication naming one needs {@link Policy#anyPublishedHost()}.
     */
    private RegisterMeta withHost(Connection connection, RegisterMeta meta) {
        InetAddress remote = ((InetSocketAddress) connection.remoteAddress()).getAddress(); // TCP only
        String host = meta.address().host();
        InetAddress given = host == null || host.isEmpty() ? null : NetUtil.createInetAddressFromIpAddressString(host);
        if (host == null || host.isBlank() || (given != null && given.isAnyLocalAddress())) {
            return meta.withAddress(meta.address().withHost(remote.getHostAddress()));
        }
        return policy.anyPublishedHost() || remote.equals(given) ? meta : null;
    }

    private void run(Runnable task) {
        try {
            worker.execute(task);
        } catch (RejectedExecutionException e) {
            log.debug("registry server closed; dropping a task");
        }
    }

    /**
     * Stops the worker. Called before the connections close, so a server that shuts down does not announce its
     * providers as gone: subscribers keep their lists until a server tells them otherwise.
     */
    @Override
    public void close() {
        worker.shutdownNow();
        try {
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
