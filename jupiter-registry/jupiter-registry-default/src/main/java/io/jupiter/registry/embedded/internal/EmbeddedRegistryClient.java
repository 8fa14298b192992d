package io.jupiter.registry.embedded.internal;

import io.jupiter.common.LogText;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.internal.RegistryWorker;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of one or more embedded registry servers ({@code host1:port1,host2:port2}): it publishes to and
 * subscribes on each of them, and merges what they report.
 *
 * <p>All state lives on one worker thread. Registrations and subscriptions are replayed on every (re)connect;
 * messages not acknowledged within the resend interval are sent again. Pushes carry a per-service version: a change
 * whose version is not newer than the last one seen from that server is dropped (it is still acknowledged). A lost
 * registry connection keeps the last known lists, and an empty full list never replaces a non-empty one
 * (empty-push protection): only explicit withdrawals and offline notices remove providers.
 *
 * <p>With a secret, a connection is used only after {@link RegistryAuth}'s handshake: the client answers the
 * registry's challenge and checks the registry's proof; a registry that sends anything else first, proves a wrong
 * secret, or sends no challenge within the timeout is disconnected with a WARN line (and tried again with the
 * transport's reconnect backoff).
 *
 * <p>This class decides; the pieces it uses each do one job: {@link ClientHandshake} (the secret),
 * {@link ProviderViews} (what the servers reported), {@link ClientOutbox} (ACKs and resends).
 */
public final class EmbeddedRegistryClient implements RegistryService, FrameHandler {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRegistryClient.class);

    private final RegistryWorker worker = new RegistryWorker("jupiter-registry-client");
    private final Connector connector;
    private final List<ConnectionGroup> groups = new ArrayList<>();
    /** The secret's handshake, or {@code null} without a secret. */
    private final ClientHandshake handshake;
    /** At most one line per registry address every 10 s: a refused client reconnects again and again. */
    private final ThrottledWarning refused = new ThrottledWarning(log, 10, TimeUnit.SECONDS);

    // Worker-confined state.
    // The transport calls connected() before the group lists the connection: track the open ones here, on the
    // worker, so a registration or subscription is sent exactly by whichever of the two tasks runs second.
    private final Set<Connection> active = new LinkedHashSet<>();
    private final Set<RegisterMeta> registered = new LinkedHashSet<>();
    private final Map<ServiceMeta, List<NotifyListener>> listeners = new LinkedHashMap<>();
    private final ProviderViews views = new ProviderViews();
    private final ClientOutbox outbox;
    private volatile boolean closed;

    /**
     * A client of {@code servers}.
     *
     * @param auth the shared-secret handshake, or {@code null} without a secret (1.3.1's wire)
     */
    public EmbeddedRegistryClient(List<InetSocketAddress> servers, TransportConfig transportConfig,
                                  long resendMillis, RegistryAuth auth) {
        this.outbox = new ClientOutbox(TimeUnit.MILLISECONDS.toNanos(resendMillis));
        this.handshake = auth == null ? null : new ClientHandshake(auth, worker.executor(), refused);
        TransportConfig config = transportConfig.toBuilder().acceptedMessageCodes(RegistryFrames.MESSAGE_CODES)
                .build();
        this.connector = TransportFactory.load().newConnector(config, this);
        for (InetSocketAddress server : servers) {
            groups.add(connector.connect(server, 1));
        }
        long scan = Math.max(10, Math.min(300, resendMillis / 4));
        worker.executor().scheduleWithFixedDelay(this::resendExpired, scan, scan, TimeUnit.MILLISECONDS);
    }

    @Override
    public String scheme() {
        return "default";
    }

    @Override
    public void register(RegisterMeta meta) {
        run(() -> {
            if (registered.add(meta)) {
                for (Connection connection : activeConnections()) {
                    outbox.publish(connection, meta);
                }
            }
        });
    }

    @Override
    public void unregister(RegisterMeta meta) {
        run(() -> {
            if (registered.remove(meta)) {
                outbox.unconfirm(meta);
                for (Connection connection : activeConnections()) {
                    outbox.send(connection, RegistryFrames.PUBLISH_CANCEL_SERVICE, meta);
                }
            }
        });
    }

    @Override
    public void subscribe(ServiceMeta service, NotifyListener listener) {
        run(() -> {
            List<NotifyListener> list = listeners.get(service);
            if (list == null) {
                list = new CopyOnWriteArrayList<>();
                listeners.put(service, list);
                for (Connection connection : activeConnections()) {
                    outbox.send(connection, RegistryFrames.SUBSCRIBE_SERVICE, service);
                }
            }
            list.add(listener);
            List<RegisterMeta> known = views.merged(service);
            if (known != null) {
                listener.providersChanged(service, known);
            }
        });
    }

    @Override
    public long skippedRecords() {
        return views.skipped();
    }

    @Override
    public List<RegisterMeta> lookup(ServiceMeta service) {
        return worker.query(() -> {
            List<RegisterMeta> known = views.merged(service);
            return known == null ? List.<RegisterMeta>of() : known;
        }, List.of());
    }

    @Override
    public boolean awaitRegistered(long timeoutMillis) throws InterruptedException {
        return worker.await(() -> outbox.confirmedAll(registered), timeoutMillis);
    }

    // ---- transport events (IO threads) ----

    @Override
    public void connected(Connection connection) {
        if (handshake == null) {
            ready(connection);
            return;
        }
        handshake.start(connection);
    }

    /** The connection may carry registrations and subscriptions: replays them. */
    private void ready(Connection connection) {
        run(() -> {
            log.info("connected to registry {}", connection.remoteAddress());
            active.add(connection);
            views.connected((InetSocketAddress) connection.remoteAddress());
            for (RegisterMeta meta : registered) {
                outbox.publish(connection, meta);
            }
            for (ServiceMeta service : listeners.keySet()) {
                outbox.send(connection, RegistryFrames.SUBSCRIBE_SERVICE, service);
            }
        });
    }

    @Override
    public void disconnected(Connection connection) {
        if (handshake != null) {
            handshake.forget(connection, closed);
        }
        run(() -> {
            if (!closed) {
                log.warn("lost registry {}; keeping the last known provider lists", connection.remoteAddress());
            }
            active.remove(connection);
            outbox.forget(connection);
        });
    }

    @Override
    public void frameReceived(Connection connection, Frame frame) {
        if (handshake != null && !handshake.passed(connection)) {
            if (handshake.receive(connection, frame)) {
                ready(connection);
            }
            return;
        }
        if (frame.messageCode() == RegistryFrames.AUTH_CODE) {
            frame.release();
            refused.warnFor(connection.remoteAddress(), "closing registry connection {}: {}",
                    connection.remoteAddress(), handshake == null ? "the registry requires a secret and this "
                            + "client has none (set JUPITER_REGISTRY_SECRET)" : "an unexpected AUTH frame");
            connection.close();
            return;
        }
        if (frame.messageCode() == RegistryFrames.ACK) {
            long sequence = frame.id();
            frame.release();
            run(() -> outbox.acked(connection, sequence, registered));
            return;
        }
        RegistryMessage message;
        try {
            message = RegistryFrames.read(frame);
        } catch (RegistryCodecException e) {
            log.warn("dropping an unreadable registry message (code 0x{}) from {}: {}",
                    Integer.toHexString(frame.messageCode()), connection.remoteAddress(), LogText.of(e.getMessage()));
            return;
        }
        run(() -> handle(connection, message));
    }

    // ---- worker ----

    private void handle(Connection connection, RegistryMessage message) {
        worker.step("push");
        InetSocketAddress server = (InetSocketAddress) connection.remoteAddress(); // the registry serves TCP only
        switch (message.messageCode()) {
            case RegistryFrames.PUBLISH_SERVICE, RegistryFrames.PUBLISH_CANCEL_SERVICE -> {
                RegistryFrames.ack(connection, message.sequence());
                if (!(message.data() instanceof PushData push)) {
                    log.warn("ignoring a push without service data from {}", connection.remoteAddress());
                    return;
                }
                if (views.apply(server, message, push)) {
                    refresh(push.service());
                }
            }
            case RegistryFrames.OFFLINE_NOTICE -> {
                if (message.data() instanceof ProviderAddress address) {
                    Set<ServiceMeta> changed = views.offline(server, address);
                    log.info("registry {} reports {} offline", connection.remoteAddress(), LogText.of(address));
                    changed.forEach(this::refresh);
                }
            }
            default -> log.debug("ignoring registry message code 0x{}", Integer.toHexString(message.messageCode()));
        }
    }

    /** Recomputes the merged list of a service and tells its listeners if it changed. */
    private void refresh(ServiceMeta service) {
        List<RegisterMeta> now = views.remerge(service);
        if (now == null) {
            return;
        }
        for (NotifyListener listener : listeners.getOrDefault(service, List.of())) {
            try {
                listener.providersChanged(service, now);
            } catch (RuntimeException e) {
                log.warn("registry listener failed for {}", service, e);
            }
        }
    }

    private void resendExpired() {
        try {
            outbox.resendExpired();
        } catch (RuntimeException e) {
            log.warn("registry resend failed", e);
        }
    }

    /** The worker all state lives on (tests read its {@link RegistryWorker#taskFailures()}). */
    public RegistryWorker worker() {
        return worker;
    }

    private List<Connection> activeConnections() {
        return new ArrayList<>(active);
    }

    private void run(Runnable task) {
        worker.run(task);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Let queued work (a last unregister) go out first; retries and resends are dropped.
        worker.close(() -> { });
        for (ConnectionGroup group : groups) {
            group.close();
        }
        connector.close();
    }
}
