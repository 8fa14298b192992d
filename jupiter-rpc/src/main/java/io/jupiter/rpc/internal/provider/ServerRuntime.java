package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.flow.FlowLimiter;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import io.jupiter.rpc.internal.stream.ProviderStreams;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.protocol.RefusalReasons;
import io.jupiter.rpc.security.Authorizer;
import io.jupiter.rpc.security.CallerIdentifier;
import io.jupiter.rpc.security.TokenAuthenticator;
import io.jupiter.serialization.SerializerSet;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.Frames;
import io.jupiter.transport.PeerIncidents;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import java.net.SocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The wiring of one server: the acceptor and the transport's frame handler, in front of the jobs it holds together.
 * <ul>
 * <li>{@link ServiceRegistry}: the services, their interceptors, pinned serializers and executors;</li>
 * <li>{@link ConnectionTable}: the open connections, their limits and callers;</li>
 * <li>{@link ProviderExecutors}: the executors that run calls, from start to drain and close;</li>
 * <li>{@link ProviderChain}: the stages every call and stream open goes through, and where stream frames leave them
 * ({@link StreamGate}).</li>
 * </ul>
 */
public final class ServerRuntime implements FrameHandler, AutoCloseable {

    /** The most call cancels a provider remembers per connection (the oldest are forgotten first). */
    public static final int MAX_CALL_CANCELS_PER_CONNECTION = CancelledCalls.CAPACITY;

    private final ServiceRegistry services = new ServiceRegistry();
    private final ProviderExecutors executors;
    private final ProviderChain chain;
    private final ConnectionTable connections;
    private final Acceptor acceptor;
    private final RpcMetrics metrics;

    /**
     * What one connection may have in flight at once, beyond which admission answers {@code SERVER_BUSY}.
     *
     * @param requests requests queued, being read or running
     * @param bytes    bytes of request bodies not read yet
     */
    public record ConnectionLimits(int requests, long bytes) {
    }

    /**
     * Who callers are and who may call what.
     *
     * @param identifier names each caller when its connection opens; {@code null}: none
     * @param tokens     names each caller by the token its connection presents first; {@code null}: no token is
     *                   asked for. Not with an {@code identifier}: a connection's caller is named once
     * @param authorizer who may call what; {@code null}: everyone everything
     * @param tokenTimeoutMillis with {@code tokens}: how long a connection may go without presenting its token
     * @param refusalLogMillis   at most one log line this often per peer IP and cause of refusal
     * @param reasons            where the token gate and authorization note why they refused, for other protocols
     */
    public record Security(CallerIdentifier identifier, TokenAuthenticator tokens, Authorizer authorizer,
                           long tokenTimeoutMillis, long refusalLogMillis, RefusalReasons reasons) {

        public Security {
            if (identifier != null && tokens != null) {
                throw new IllegalArgumentException("callerIdentifier and tokenAuthenticator: both set (expected: at"
                        + " most one; a connection's caller is named once)");
            }
        }
    }

    /**
     * @param pool            the built-in pool (its queue's capacity also bounds what is handed to an executor)
     * @param executor        runs provider calls instead of the built-in pool; {@code null}: the built-in pool
     * @param ownsExecutor    whether the runtime made {@code executor} (it is then shut down with the server)
     * @param perConnection   what one connection may have in flight: requests, and bytes of unread bodies
     * @param serializers     the serializers requests may use
     * @param serializerSet   the serializers made for this server's allow-list and read limits
     */
    public ServerRuntime(TransportConfig transportConfig, SocketAddress bindAddress, ProviderPool pool,
                         Executor executor, boolean ownsExecutor, ConnectionLimits perConnection,
                         Set<SerializerType> serializers, SerializerSet serializerSet, RpcMetrics metrics,
                         Security security) {
        this.metrics = metrics;
        this.executors = new ProviderExecutors(pool, executor, ownsExecutor, services);
        this.chain = new ProviderChain(services, new AcceptedSerializers(serializers, serializerSet),
                executors.pool(), metrics, security.tokens(), security.tokenTimeoutMillis(), security.authorizer(),
                security.refusalLogMillis(), security.reasons());
        this.connections = new ConnectionTable(perConnection.requests(), perConnection.bytes(),
                security.identifier(), chain.tokenGate, chain.draining);
        // A provider has no use for responses: a peer sending one is not a consumer, and is closed at the header.
        TransportConfig.Builder providerConfig = transportConfig.toBuilder()
                .acceptedMessageCodes(ProtocolHeader.PROVIDER_MESSAGE_CODES);
        if (chain.tokenGate != null) {
            // Only here, and only as the first frame: elsewhere a token frame closes the connection, as in 1.3.1.
            providerConfig.firstFrameOnly(ProtocolHeader.CALLER_TOKEN, ProtocolHeader.MAX_CALLER_TOKEN_SIZE);
        }
        this.acceptor = TransportFactory.load().newAcceptor(providerConfig.build(), bindAddress, this);
    }

    /**
     * Sets the interceptors of every service and the application-wide flow limiter ({@code null}: none). Call
     * before registering services.
     */
    public void extensions(List<Interceptor> interceptors, FlowLimiter appFlowLimiter) {
        services.interceptors(interceptors);
        chain.admission().appFlowLimiter(appFlowLimiter);
    }

    /**
     * Admits at most as many requests at once as {@code limit} allows ({@code null}: no such limit, the default);
     * each holds its permit until it is answered or dropped. Call before the server starts.
     */
    public void concurrencyLimit(AdaptiveConcurrencyLimit limit) {
        chain.admission().concurrencyLimit(limit);
    }

    /** The server's adaptive concurrency limit, or {@code null}. */
    public AdaptiveConcurrencyLimit concurrencyLimit() {
        return chain.admission().concurrencyLimit();
    }

    /** Lets requests for the registered service {@code directory} use only {@code types}. */
    public void pinSerializers(String directory, Set<SerializerType> types) {
        services.pinSerializers(directory, types);
    }

    /** Whether errors sent to callers keep their stack traces; off by default. */
    public void sendStackTraces(boolean send) {
        chain.responder.sendStackTraces(send);
    }

    /**
     * Runs the calls of the registered service {@code directory} on {@code executor} (the application's; never shut
     * down here) instead of the server's pool; at most the server's queue capacity of them handed over and not
     * finished at once.
     */
    public void executor(String directory, Executor executor) {
        ServiceEntry entry = services.get(directory);
        entry.executor(executors.forService(entry, executor));
        // Only a request read on the IO thread can go straight to its service's executor.
        chain.readHandOff().readOnIoThreads();
    }

    /** Adds interceptors to a registered service. */
    public void intercept(String directory, List<Interceptor> added) {
        services.intercept(directory, added);
    }

    /** Registers a service; fails if one with the same key exists. */
    public void register(ServiceEntry entry) {
        services.register(entry);
        if (entry.mayRunOnIoThreads()) {
            chain.readHandOff().readOnIoThreads();
        }
        if (chain.streams.registered(entry)) {
            connections.all().forEach(ProviderStreams::announce);
        }
    }

    /** The streams this server serves. */
    public ProviderStreams streams() {
        return chain.streams.streams;
    }

    public Collection<ServiceEntry> services() {
        return services.all();
    }

    public RpcMetrics metrics() {
        return metrics;
    }

    public SocketAddress start() {
        return acceptor.start();
    }

    public SocketAddress localAddress() {
        return acceptor.localAddress();
    }

    public int connectionCount() {
        return acceptor.connectionCount();
    }

    /** What the transport counted of its peers' misbehaviour (closes, floods, throttled log lines). */
    public PeerIncidents peerIncidents() {
        return acceptor.incidents();
    }

    @Override
    public void frameReceived(Connection connection, Frame frame) {
        // null: not (or no longer) open; its requests are then served without per-connection limits, anonymously.
        chain.received(connection, connections.get(connection), frame);
    }

    @Override
    public void connected(Connection connection) {
        connections.connected(connection);
        if (chain.streams.servesStreams() && connections.contains(connection)) {
            ProviderStreams.announce(connection);
        }
    }

    @Override
    public void disconnected(Connection connection) {
        connections.disconnected(connection);
        chain.streams.streams.disconnected(connection);
    }

    /** Call cancels remembered now over the open connections, each at most {@link CancelledCalls#CAPACITY}. */
    public int rememberedCallCancels() {
        int sum = 0;
        for (Connection connection : connections.all()) {
            OpenConnection open = connections.get(connection);
            sum += open == null ? 0 : open.cancels.remembered();
        }
        return sum;
    }

    /** Requests received so far (for graceful shutdown: has traffic stopped?). */
    public long receivedCount() {
        return chain.receivedCount();
    }

    /**
     * Drains before closing: new requests are answered {@code SERVER_BUSY} (the consumer may safely retry them
     * elsewhere), the requests already accepted run to the end, their responses are flushed, then every connection
     * is closed. Returns whether all of that finished within the timeout.
     */
    public boolean drain(long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        chain.streams.streams.shutDown(); // each stream's receiver hears SHUTTING_DOWN before its connection closes
        chain.draining.start();
        try {
            boolean finished = executors.drain(deadline);
            return connections.closeAll(deadline) && finished;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        endStreams();
        acceptor.close();
        chain.streams.streams.close();
        executors.close();
    }

    /**
     * Ends every stream with {@code SHUTTING_DOWN} and closes the connections that had streams once those end frames
     * are written (closing the acceptor would drop them), waiting a second at most.
     */
    private void endStreams() {
        List<Connection> told = chain.streams.streams.shutDown();
        for (Connection connection : told) {
            connection.writeAndClose(Frames.heartbeat(connection.alloc()));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (told.stream().anyMatch(connections::contains) && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5); // waiting for the closes just started, a second at most
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
