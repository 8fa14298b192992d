package io.jupiter.rpc.internal.provider;

import io.jupiter.common.LogText;
import io.jupiter.common.ThrottledWarning;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Side;
import io.jupiter.rpc.flow.FlowLimiter;
import io.jupiter.rpc.internal.filter.InterceptorChain;
import io.jupiter.rpc.internal.stream.ProviderStreams;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.security.Authorizer;
import io.jupiter.rpc.security.CallerIdentifier;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.rpc.security.TokenAuthenticator;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.Connection;
import io.jupiter.transport.Frame;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportAddresses;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a server owns: the acceptor, the registered services, the provider pool and its connections; the
 * transport's frame handler, which passes every request to the {@link ProviderPipeline}.
 */
public final class ServerRuntime implements FrameHandler, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServerRuntime.class);
    /** A peer can send a refused stream frame on every connection it opens: one line a second per peer at most. */
    private static final ThrottledWarning streamFramesRefused = new ThrottledWarning(log, 1, TimeUnit.SECONDS);

    private final ConcurrentHashMap<String, ServiceEntry> services = new ConcurrentHashMap<>();
    /**
     * The same services by name, for the request path: found by the request's own strings, with no directory string
     * built per request. Arrays are replaced, never changed.
     */
    private final ConcurrentHashMap<String, ServiceEntry[]> servicesByName = new ConcurrentHashMap<>();
    private final Serializer[] accepted = new Serializer[SerializerType.MAX_CODE + 1];
    /** {@code null}: calls run on the IO threads. */
    private final ProviderExecutor pool;
    private final Acceptor acceptor;
    private final RpcMetrics metrics;
    private final ProviderPipeline pipeline;
    private List<Interceptor> interceptors = List.of();
    private final int queueCapacity;
    /** Every open connection, with what it has admitted and who its caller is: one look-up per request. */
    private final ConcurrentHashMap<Connection, OpenConnection> connections = new ConcurrentHashMap<>();
    private final int maxInFlightPerConnection;
    private final long maxQueuedBytesPerConnection;
    /** {@code null}: no identifier names callers when their connections open. */
    private final CallerIdentifier identifier;
    /** {@code null}: no caller token is asked for (the decoder closes a connection that sends one). */
    private final TokenGate tokenGate;
    /** {@code null}: every caller may call every method. */
    private final Authorizer authorizer;
    /** The streams of every connection; stream frames go here, not through the request pipeline. */
    private final ProviderStreams streams = new ProviderStreams(new StreamOpenStage(this));
    /** Whether a registered service has a stream method: then each connection hears the announcement first. */
    private volatile boolean servesStreams;

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
     */
    public record Security(CallerIdentifier identifier, TokenAuthenticator tokens, Authorizer authorizer) {

        /** All callers anonymous, all calls allowed (as 1.3.1). */
        public static final Security NONE = new Security(null, null, null);

        public Security {
            if (identifier != null && tokens != null) {
                throw new IllegalArgumentException("callerIdentifier and tokenAuthenticator: both set (expected: at"
                        + " most one; a connection's caller is named once)");
            }
        }
    }

    /**
     * @param providerThreads threads of the provider pool; 0 runs requests on the IO threads
     * @param queueCapacity   requests that may wait for a provider thread before new ones are refused
     * @param perConnection   what one connection may have in flight: requests, and bytes of unread bodies
     */
    public ServerRuntime(TransportConfig transportConfig, SocketAddress bindAddress, int providerThreads,
                         int queueCapacity, ConnectionLimits perConnection, Set<SerializerType> serializers,
                         RpcMetrics metrics) {
        this(transportConfig, bindAddress, providerThreads, null, false, queueCapacity, perConnection, serializers,
                metrics, Security.NONE);
    }

    /**
     * @param providerThreads threads of the built-in provider pool; 0 runs requests on the IO threads; unused with
     *                        an {@code executor}
     * @param executor        runs provider calls instead of the built-in pool; {@code null}: the built-in pool
     * @param ownsExecutor    whether the runtime made {@code executor} (it is then shut down with the server)
     * @param queueCapacity   requests that may wait for a provider thread (or, with an executor, be handed to it and
     *                        not finished) before new ones are refused
     */
    public ServerRuntime(TransportConfig transportConfig, SocketAddress bindAddress, int providerThreads,
                         Executor executor, boolean ownsExecutor, int queueCapacity, ConnectionLimits perConnection,
                         Set<SerializerType> serializers, RpcMetrics metrics, Security security) {
        this.metrics = metrics;
        this.maxInFlightPerConnection = perConnection.requests();
        this.maxQueuedBytesPerConnection = perConnection.bytes();
        for (SerializerType type : serializers) {
            accepted[type.code()] = Serializers.get(type);
        }
        this.queueCapacity = queueCapacity;
        if (executor != null) {
            this.pool = new ApplicationExecutor(ownsExecutor ? "the provider's virtual threads"
                    : "the provider executor " + executor, executor, ownsExecutor, queueCapacity);
        } else if (providerThreads > 0) {
            this.pool = new PoolExecutor(providerThreads, queueCapacity);
        } else {
            this.pool = null;
        }
        this.pipeline = new ProviderPipeline(this, pool, metrics);
        this.identifier = security.identifier();
        this.tokenGate = security.tokens() == null ? null : new TokenGate(security.tokens(), pipeline);
        this.authorizer = security.authorizer();
        // A provider has no use for responses: a peer sending one is not a consumer, and is closed at the header.
        TransportConfig.Builder providerConfig = transportConfig.toBuilder()
                .acceptedMessageCodes(ProtocolHeader.PROVIDER_MESSAGE_CODES);
        if (tokenGate != null) {
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
        this.interceptors = List.copyOf(interceptors);
        pipeline.appFlowLimiter(appFlowLimiter);
    }

    /** The authorizer, or {@code null}. */
    Authorizer authorizer() {
        return authorizer;
    }


    /** Lets requests for the registered service {@code directory} use only {@code types}. */
    public void pinSerializers(String directory, Set<SerializerType> types) {
        ServiceEntry entry = services.get(directory);
        if (entry == null) {
            throw new IllegalStateException("no service " + directory + " is registered");
        }
        entry.pinSerializers(types);
    }

    /** Whether errors sent to callers keep their stack traces; off by default. */
    public void sendStackTraces(boolean send) {
        pipeline.sendStackTraces(send);
    }

    /**
     * Runs the calls of the registered service {@code directory} on {@code executor} (the application's; never shut
     * down here) instead of the server's pool; at most the server's queue capacity of them handed over and not
     * finished at once.
     */
    public void executor(String directory, Executor executor) {
        ServiceEntry entry = services.get(directory);
        if (entry == null) {
            throw new IllegalStateException("no service " + directory + " is registered");
        }
        entry.executor(new ApplicationExecutor("the executor of " + entry.key(), executor, false, queueCapacity));
        // Only a request read on the IO thread can go straight to its service's executor.
        pipeline.readOnIoThreads();
    }

    /** Adds interceptors to a registered service. */
    public void intercept(String directory, List<Interceptor> added) {
        ServiceEntry entry = services.get(directory);
        if (entry == null) {
            throw new IllegalStateException("no service " + directory + " is registered");
        }
        synchronized (entry) {
            List<Interceptor> all = new ArrayList<>(entry.interceptors());
            all.addAll(added);
            entry.interceptors(all);
            entry.chain(InterceptorChain.of(Side.PROVIDER, interceptors, all));
        }
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

    /** Registers a service; fails if one with the same key exists. */
    public void register(ServiceEntry entry) {
        entry.chain(InterceptorChain.of(Side.PROVIDER, interceptors, entry.interceptors()));
        ServiceEntry previous = services.putIfAbsent(entry.key().directory(), entry);
        if (previous != null) {
            throw new IllegalStateException("service " + entry.key() + " is already registered");
        }
        servicesByName.merge(entry.key().name(), new ServiceEntry[] {entry}, (known, added) -> {
            ServiceEntry[] all = Arrays.copyOf(known, known.length + 1);
            all[known.length] = added[0];
            return all;
        });
        if (pool != null && entry.mayRunOnIoThreads()) {
            pipeline.readOnIoThreads();
        }
        if (!servesStreams && StreamOpenStage.hasStreamMethod(entry.serviceInterface())) {
            servesStreams = true;
            connections.keySet().forEach(ProviderStreams::announce);
        }
    }

    /** The streams this server serves. */
    public ProviderStreams streams() {
        return streams;
    }

    public Collection<ServiceEntry> services() {
        return services.values();
    }

    public RpcMetrics metrics() {
        return metrics;
    }

    /** The service a request names, or {@code null}. */
    ServiceEntry service(ServiceMetadata metadata) {
        String name = metadata.getServiceProviderName();
        ServiceEntry[] named = name == null ? null : servicesByName.get(name);
        if (named != null) {
            for (ServiceEntry entry : named) {
                ServiceKey key = entry.key();
                if (key.group().equals(metadata.getGroup()) && key.version().equals(metadata.getVersion())) {
                    return entry;
                }
            }
        }
        return null;
    }


    /** The serializer for a wire code if this server accepts it, else {@code null}. */
    Serializer acceptedSerializer(byte code) {
        return code >= 0 && code < accepted.length ? accepted[code] : null;
    }

    @Override
    public void frameReceived(Connection connection, Frame frame) {
        // null: not (or no longer) open; its requests are then served without per-connection limits, anonymously.
        OpenConnection open = connections.get(connection);
        if (tokenGate != null && (open == null || !open.callerNamed())) {
            // Connection events and frames of one connection all come on its IO thread: no race with disconnected.
            CallerIdentity caller = tokenGate.received(connection, frame);
            if (caller != null && open != null) {
                open.caller(caller);
            }
            return;
        }
        byte code = frame.messageCode();
        if (ProtocolHeader.isStreamFrame(code)) {
            if (!servesStreams) {
                // It announced none, so no consumer of ours sends one: closed, as 1.3.1 (and this server before
                // it had a stream service) closes a connection on a message code it does not know.
                streamFramesRefused.warnFor(TransportAddresses.ipOf(connection.remoteAddress()),
                        "closing {}: a stream frame (message code 0x{}) to a provider that serves no stream method",
                        connection.remoteAddress(), Integer.toHexString(code));
                frame.release();
                connection.close();
                return;
            }
            streams.received(connection, open == null ? CallerIdentity.ANONYMOUS : open.caller(), frame);
            return;
        }
        if (code == ProtocolHeader.HEARTBEAT) {
            frame.release(); // an announcement: a provider has no use for one
            return;
        }
        pipeline.received(connection, open, frame);
    }

    @Override
    public void connected(Connection connection) {
        CallerIdentity caller = null;
        CallerIdentifier who = identifier;
        if (who != null) {
            try {
                caller = Objects.requireNonNull(who.identify(connection), "caller identity");
            } catch (RuntimeException e) {
                log.warn("closing {}: its caller identity could not be established: {}",
                        connection.remoteAddress(), LogText.of(e.toString()));
                connection.close();
                return;
            }
        }
        if (tokenGate != null) {
            tokenGate.opened(connection);
        }
        connections.put(connection, new OpenConnection(
                new ConnectionLoad(maxInFlightPerConnection, maxQueuedBytesPerConnection), caller));
        if (servesStreams) {
            ProviderStreams.announce(connection);
        }
        if (pipeline.isDraining()) {
            // A consumer reconnecting to a server that is shutting down (it has not heard of the unpublish yet):
            // nothing would be served on it, and the drain waits for every connection to close.
            connection.close();
        }
    }

    @Override
    public void disconnected(Connection connection) {
        connections.remove(connection);
        streams.disconnected(connection);
        if (tokenGate != null) {
            tokenGate.closed(connection);
        }
    }

    /** Requests received so far (for graceful shutdown: has traffic stopped?). */
    public long receivedCount() {
        return pipeline.receivedCount();
    }

    /**
     * Drains before closing: new requests are answered {@code SERVER_BUSY} (the consumer may safely retry them
     * elsewhere), the requests already accepted run to the end, their responses are flushed, then every connection
     * is closed. Returns whether all of that finished within the timeout.
     */
    public boolean drain(long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        streams.shutDown(); // each stream's receiver hears SHUTTING_DOWN before its connection closes
        pipeline.startDraining();
        boolean finished = true;
        for (ProviderExecutor executor : executors()) {
            executor.shutdown();
            try {
                finished &= executor.awaitTermination(Math.max(0, deadline - System.nanoTime()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        // Writes are ordered: a heartbeat written after the last response and then a close flushes every response.
        for (Connection connection : connections.keySet()) {
            connection.writeAndClose(Frames.heartbeat(connection.alloc()));
        }
        while (!connections.isEmpty() && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5); // waiting for the closes just started, within the drain's deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return finished && connections.isEmpty();
    }

    /** Requests that will not run: their buffers are released, their callers learn it from the closed connection. */
    private static void discard(List<ProviderRequest> requests) {
        for (ProviderRequest request : requests) {
            request.discard();
        }
    }

    /**
     * Ends every stream with {@code SHUTTING_DOWN} and closes the connections that had streams once those end frames
     * are written (closing the acceptor would drop them), waiting a second at most.
     */
    private void endStreams() {
        List<Connection> told = streams.shutDown();
        for (Connection connection : told) {
            connection.writeAndClose(Frames.heartbeat(connection.alloc()));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (told.stream().anyMatch(connections::containsKey) && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5); // waiting for the closes just started, a second at most
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The server's executor (if any) and the services' own. */
    private List<ProviderExecutor> executors() {
        List<ProviderExecutor> all = new ArrayList<>();
        if (pool != null) {
            all.add(pool);
        }
        for (ServiceEntry entry : services.values()) {
            ProviderExecutor own = entry.executor();
            if (own != null) {
                all.add(own);
            }
        }
        return all;
    }

    @Override
    public void close() {
        endStreams();
        acceptor.close();
        streams.close();
        for (ProviderExecutor executor : executors()) {
            executor.shutdown();
            try {
                if (!executor.awaitTermination(TimeUnit.SECONDS.toNanos(5))) {
                    discard(executor.shutdownNow());
                    executor.awaitTermination(TimeUnit.SECONDS.toNanos(1));
                }
            } catch (InterruptedException e) {
                discard(executor.shutdownNow());
                Thread.currentThread().interrupt();
            }
        }
    }
}
