package io.jupiter.registry.embedded.internal;

import io.jupiter.common.LogText;
import io.jupiter.common.NamedThreadFactory;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 *   <li>PUBLISH / PUBLISH_CANCEL from a provider: the host is filled in from the connection when the provider left
 *       it empty; ACK; the service's version goes up; the change is pushed to every subscriber.</li>
 *   <li>SUBSCRIBE: the full provider list is pushed (with the current version), then the ACK.</li>
 *   <li>A provider's connection closes: its services are cancelled as above, then every subscriber connection gets
 *       an OFFLINE_NOTICE with its address.</li>
 *   <li>A push not acknowledged within the resend interval is sent again; if the service changed since, the current
 *       full list goes instead, so a subscriber always converges.</li>
 * </ul>
 */
public final class RegistryServerHandler implements FrameHandler, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RegistryServerHandler.class);
    /** Warnings any peer can trigger at will: at most one line a second per peer. */
    private final ThrottledWarning malformed = new ThrottledWarning(log, 1, TimeUnit.SECONDS);

    private final ScheduledExecutorService worker;
    private final long resendNanos;
    private final Map<ServiceMeta, ServiceState> services = new HashMap<>();
    private final Map<Connection, Peer> peers = new LinkedHashMap<>();
    private final Unacked unacked = new Unacked();
    private long nextSequence;

    public RegistryServerHandler(long resendMillis) {
        this.resendNanos = TimeUnit.MILLISECONDS.toNanos(resendMillis);
        this.worker = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("jupiter-registry-server",
                true));
        long scan = Math.max(10, Math.min(300, resendMillis / 4));
        worker.scheduleWithFixedDelay(this::resendExpired, scan, scan, TimeUnit.MILLISECONDS);
    }

    @Override
    public void connected(Connection connection) {
        run(() -> peers.computeIfAbsent(connection, c -> new Peer()));
    }

    @Override
    public void disconnected(Connection connection) {
        run(() -> dropPeer(connection));
    }

    @Override
    public void frameReceived(Connection connection, Frame frame) {
        if (frame.messageCode() == RegistryFrames.ACK) {
            long sequence = frame.id();
            frame.release();
            run(() -> unacked.acked(connection, sequence));
            return;
        }
        RegistryMessage message;
        try {
            message = RegistryFrames.read(frame);
        } catch (RegistryCodecException e) {
            malformed.warnFor(peer(connection), "closing registry connection {}: unreadable message (code 0x{}): {}",
                    connection.remoteAddress(), Integer.toHexString(frame.messageCode()), LogText.of(e.getMessage()));
            connection.close();
            return;
        }
        run(() -> handle(connection, message));
    }

    /** The providers of a service known now (for monitoring and tests). */
    public List<RegisterMeta> providers(ServiceMeta service) {
        return query(() -> {
            ServiceState state = services.get(service);
            return state == null ? List.<RegisterMeta>of() : List.copyOf(state.providers.values());
        });
    }

    /** Every provider of every service known now (for monitoring). */
    public List<RegisterMeta> allProviders() {
        return query(() -> {
            List<RegisterMeta> all = new ArrayList<>();
            for (ServiceState state : services.values()) {
                all.addAll(state.providers.values());
            }
            return all;
        });
    }

    /** The remote addresses of the connections subscribed to at least one service now (for monitoring). */
    public List<InetSocketAddress> subscribers() {
        return query(() -> {
            List<InetSocketAddress> all = new ArrayList<>();
            for (Map.Entry<Connection, Peer> e : peers.entrySet()) {
                if (!e.getValue().subscribed.isEmpty()) {
                    all.add(e.getKey().remoteAddress());
                }
            }
            return all;
        });
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
        Peer peer = peers.computeIfAbsent(connection, c -> new Peer());
        Object data = message.data();
        switch (message.messageCode()) {
            case RegistryFrames.PUBLISH_SERVICE -> {
                if (!(data instanceof RegisterMeta meta)) {
                    malformed.warnFor(peer(connection), "ignoring a PUBLISH without a RegisterMeta from {}",
                            connection.remoteAddress());
                    return;
                }
                RegisterMeta filled = withHost(connection, meta);
                RegistryFrames.ack(connection, message.sequence());
                peer.published.add(filled);
                ServiceState state = services.computeIfAbsent(filled.service(), s -> new ServiceState());
                RegisterMeta previous = state.providers.put(filled.address(), filled);
                if (!filled.equals(previous)) {
                    state.version++;
                    log.info("published {}", LogText.of(filled));
                    pushChange(filled.service(), state, RegistryFrames.PUBLISH_SERVICE, filled);
                }
            }
            case RegistryFrames.PUBLISH_CANCEL_SERVICE -> {
                if (!(data instanceof RegisterMeta meta)) {
                    malformed.warnFor(peer(connection), "ignoring a PUBLISH_CANCEL without a RegisterMeta from {}",
                            connection.remoteAddress());
                    return;
                }
                RegisterMeta filled = withHost(connection, meta);
                RegistryFrames.ack(connection, message.sequence());
                peer.published.remove(filled);
                cancel(filled);
            }
            case RegistryFrames.SUBSCRIBE_SERVICE -> {
                if (!(data instanceof ServiceMeta service)) {
                    malformed.warnFor(peer(connection), "ignoring a SUBSCRIBE without a ServiceMeta from {}",
                            connection.remoteAddress());
                    return;
                }
                ServiceState state = services.computeIfAbsent(service, s -> new ServiceState());
                state.subscribers.add(connection);
                peer.subscribed.add(service);
                pushFullList(connection, service, state);
                RegistryFrames.ack(connection, message.sequence());
            }
            default -> log.debug("ignoring registry message code 0x{} from {}",
                    Integer.toHexString(message.messageCode()), connection.remoteAddress());
        }
    }

    private void cancel(RegisterMeta meta) {
        ServiceState state = services.get(meta.service());
        if (state != null && state.providers.remove(meta.address(), meta)) {
            state.version++;
            log.info("withdrew {}", LogText.of(meta));
            pushChange(meta.service(), state, RegistryFrames.PUBLISH_CANCEL_SERVICE, meta);
            forgetIfUnused(meta.service(), state);
        }
    }

    private void dropPeer(Connection connection) {
        Peer peer = peers.remove(connection);
        unacked.forget(connection);
        if (peer == null) {
            return;
        }
        for (ServiceMeta service : peer.subscribed) {
            ServiceState state = services.get(service);
            if (state != null) {
                state.subscribers.remove(connection);
                forgetIfUnused(service, state);
            }
        }
        Set<ProviderAddress> offline = new LinkedHashSet<>();
        for (RegisterMeta meta : peer.published) {
            cancel(meta);
            offline.add(meta.address());
        }
        for (ProviderAddress address : offline) {
            log.info("provider {} went offline", LogText.of(address));
            for (Map.Entry<Connection, Peer> entry : peers.entrySet()) {
                if (!entry.getValue().subscribed.isEmpty()) {
                    send(entry.getKey(), new RegistryMessage(nextSequence++, RegistryFrames.PROTOSTUFF,
                            RegistryFrames.OFFLINE_NOTICE, 0, address), false);
                }
            }
        }
    }

    private void pushChange(ServiceMeta service, ServiceState state, byte code, RegisterMeta meta) {
        for (Connection subscriber : state.subscribers) {
            send(subscriber, new RegistryMessage(nextSequence++, RegistryFrames.PROTOSTUFF, code, state.version,
                    new PushData(service, meta)), true);
        }
    }

    private void pushFullList(Connection subscriber, ServiceMeta service, ServiceState state) {
        List<RegisterMeta> all = new ArrayList<>(state.providers.values());
        send(subscriber, new RegistryMessage(nextSequence++, RegistryFrames.PROTOSTUFF,
                RegistryFrames.PUBLISH_SERVICE, state.version, new PushData(service, all)), true);
    }

    private void send(Connection connection, RegistryMessage message, boolean needsAck) {
        if (!connection.isActive()) {
            return;
        }
        if (needsAck) {
            unacked.sent(connection, message);
        }
        RegistryFrames.send(connection, message);
    }

    private void resendExpired() {
        try {
            for (Unacked.Entry entry : unacked.removeExpired(resendNanos)) {
                Connection connection = entry.connection();
                RegistryMessage message = entry.message();
                if (!connection.isActive() || !(message.data() instanceof PushData push)) {
                    continue;
                }
                ServiceState state = services.get(push.service());
                if (state == null || !state.subscribers.contains(connection)) {
                    continue;
                }
                if (state.version > message.version()) {
                    // Stale: the subscriber would drop it; the current full list replaces it.
                    pushFullList(connection, push.service(), state);
                } else {
                    log.debug("resending registry message {} to {}", message.sequence(), connection.remoteAddress());
                    send(connection, message, true);
                }
            }
        } catch (RuntimeException e) {
            log.warn("registry resend failed", e);
        }
    }

    private void forgetIfUnused(ServiceMeta service, ServiceState state) {
        if (state.providers.isEmpty() && state.subscribers.isEmpty()) {
            services.remove(service);
        }
    }

    private static RegisterMeta withHost(Connection connection, RegisterMeta meta) {
        String host = meta.address().host();
        if (host != null && !host.isBlank()) {
            return meta;
        }
        return meta.withAddress(meta.address().withHost(connection.remoteAddress().getAddress().getHostAddress()));
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

    private static final class ServiceState {
        long version;
        final Map<ProviderAddress, RegisterMeta> providers = new LinkedHashMap<>();
        final Set<Connection> subscribers = new LinkedHashSet<>();
    }

    private static final class Peer {
        final Set<RegisterMeta> published = new LinkedHashSet<>();
        final Set<ServiceMeta> subscribed = new LinkedHashSet<>();
    }

    private static Object peer(Connection connection) {
        InetSocketAddress remote = connection.remoteAddress();
        return remote == null ? null : remote.getAddress();
    }
}
