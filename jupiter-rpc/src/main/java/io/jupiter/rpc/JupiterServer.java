package io.jupiter.rpc;

import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.flow.FlowLimiter;
import io.jupiter.rpc.internal.AdaptiveConcurrencyLimit;
import io.jupiter.rpc.internal.VirtualThreads;
import io.jupiter.rpc.internal.provider.ProviderPool;
import io.jupiter.rpc.internal.provider.Publication;
import io.jupiter.rpc.internal.provider.ServerRuntime;
import io.jupiter.rpc.internal.provider.ServiceEntry;
import io.jupiter.rpc.internal.stream.ProviderStreams;
import io.jupiter.rpc.internal.stream.StreamWindows;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.protocol.ServerProtocol;
import io.jupiter.rpc.protocol.ServiceCatalog;
import io.jupiter.rpc.security.AuthorizationRules;
import io.jupiter.rpc.security.Authorizer;
import io.jupiter.rpc.security.CallerIdentifier;
import io.jupiter.rpc.security.CallerIdentity;
import io.jupiter.rpc.security.TokenAuthenticator;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializerSet;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.transport.InProcessAddress;
import io.jupiter.transport.PeerIncidents;
import io.jupiter.transport.TransportAddresses;
import io.jupiter.transport.TransportConfig;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider side: serves registered service implementations on one port, or on one Unix domain socket
 * ({@link Builder#unixSocket}), or in process ({@link Builder#inProcess}).
 *
 * <pre>{@code
 * JupiterServer server = JupiterServer.builder().port(18099).build();
 * server.register(new HelloServiceImpl());
 * server.start();
 * ...
 * server.close();
 * }</pre>
 *
 * <p>Requests run on a bounded provider pool; when its threads and queue are full, new requests are answered
 * {@code SERVER_BUSY} at once. Java serialization is refused unless enabled with {@link Builder#serializers}.
 */
public final class JupiterServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JupiterServer.class);

    private final ServerRuntime runtime;
    private final Publication publication;
    /** How long no request must arrive before a graceful shutdown takes consumers to have stopped sending. */
    private final long shutdownQuietMillis;
    private final boolean adaptiveDispatch;
    private final ServiceCatalog catalog;
    /** The allow-list this server's serializers read with. */
    private final ClassAllowList allowList;
    private volatile SocketAddress bound;

    private JupiterServer(Builder builder) {
        SocketAddress bindAddress = builder.bindAddress != null ? builder.bindAddress
                : new InetSocketAddress(builder.host, builder.port);
        Requires.argument(builder.registry == null || TransportAddresses.isTcp(bindAddress), "registry: "
                + builder.registry + " (expected: none for a server on " + TransportAddresses.format(bindAddress)
                + "; a registry publishes host:port)");
        Executor executor = builder.virtualThreads
                ? VirtualThreads.newThreadPerTaskExecutor("jupiter-provider-virtual-")
                : builder.executor;
        SerializerSet serializerSet = SerializerSet.of(builder.allowList, builder.readLimits);
        this.catalog = new ServiceCatalog(builder.serializers, serializerSet, builder.streamWindowBytes);
        ServerRuntime.Security security = new ServerRuntime.Security(builder.callerIdentifier,
                builder.tokenAuthenticator, builder.authorizer, builder.callerTokenTimeoutMillis,
                builder.refusalLogIntervalMillis, catalog.refusalReasons());
        this.allowList = builder.allowList;
        TransportConfig transportConfig = builder.protocols.isEmpty() ? builder.transportConfig
                : builder.transportConfig.toBuilder().protocols(
                        builder.protocols.stream().map(p -> p.forServer(catalog)).toList()).build();
        this.runtime = new ServerRuntime(transportConfig, bindAddress,
                new ProviderPool(builder.providerThreads, builder.queueCapacity,
                        builder.queueTargetMillis, builder.queueIntervalMillis, builder.poolParallelism,
                        builder.poolStallMicros, builder.poolSpinMicros), executor, builder.virtualThreads,
                new ServerRuntime.ConnectionLimits(
                        builder.maxInFlightPerConnection, builder.maxQueuedBytesPerConnection), builder.serializers,
                serializerSet, RpcMetrics.create(RpcMetrics.Side.PROVIDER, builder.metrics), security);
        runtime.extensions(builder.interceptors, builder.appFlowLimiter);
        if (builder.adaptiveConcurrency) {
            runtime.concurrencyLimit(new AdaptiveConcurrencyLimit());
        }
        runtime.sendStackTraces(builder.sendStackTraces);
        runtime.streams().inboundWindow(builder.streamInboundWindow);
        runtime.streams().connectionBufferBytes(builder.streamConnectionBufferBytes);
        runtime.streams().windows(new StreamWindows(builder.streamWindowBytes, builder.streamConnectionWindowBytes));
        runtime.streams().streamThreads(builder.streamThreads, builder.streamOpenWaitMillis);
        // Without an advertised host, a wildcard bind publishes no host: the embedded registry fills in the address
        // the provider connects from (as 1.3.1 does), ZooKeeper the machine's address.
        this.shutdownQuietMillis = builder.shutdownQuietMillis;
        this.publication = new Publication(builder.registry, builder.advertisedHost != null ? builder.advertisedHost
                : isWildcard(builder.host) ? null : builder.host, builder.weight, builder.connCount);
        this.adaptiveDispatch = builder.adaptiveDispatch;
    }

    /** The server's adaptive concurrency limit ({@code null}: off), for tests of this package. */
    AdaptiveConcurrencyLimit concurrencyLimit() {
        return runtime.concurrencyLimit();
    }

    /** Call cancels the provider remembers now over its open connections, for tests of this package. */
    int rememberedCallCancels() {
        return runtime.rememberedCallCancels();
    }

    /** The provider's streams, for tests of this package. */
    ProviderStreams streams() {
        return runtime.streams();
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Registers an implementation under the key of the one service interface it implements (or, if it implements
     * several, of the one annotated with {@link ServiceProvider}); version from {@link ServiceProviderImpl}.
     */
    public ServiceKey register(Object implementation) {
        Requires.notNull(implementation, "implementation");
        return register(implementation, serviceInterfaceOf(implementation.getClass()));
    }

    /** Registers an implementation of {@code serviceInterface}; version from {@link ServiceProviderImpl}. */
    public ServiceKey register(Object implementation, Class<?> serviceInterface) {
        ServiceProviderImpl annotation = implementation.getClass().getAnnotation(ServiceProviderImpl.class);
        String version = annotation == null ? ServiceKey.DEFAULT_VERSION : annotation.version();
        return register(implementation, serviceInterface, ServiceKey.of(serviceInterface, version));
    }

    /** Registers an implementation of {@code serviceInterface} under an explicit key. */
    public ServiceKey register(Object implementation, Class<?> serviceInterface, ServiceKey key) {
        Requires.notNull(implementation, "implementation");
        Requires.notNull(key, "key");
        Requires.argument(serviceInterface.isInstance(implementation),
                implementation.getClass().getName() + " does not implement " + serviceInterface.getName());
        allowList.trustTypesOf(serviceInterface); // its own types need no configuration
        runtime.register(new ServiceEntry(key, serviceInterface, implementation, adaptiveDispatch));
        catalog.add(key, serviceInterface);
        publication.publish(key);
        return key;
    }

    /**
     * Adds interceptors (or {@link io.jupiter.rpc.filter.Filter}s) to the registered service {@code key} only; they run
     * after the global ones of the same priority.
     *
     * @throws IllegalStateException if no service is registered under {@code key}
     */
    public JupiterServer intercept(ServiceKey key, Interceptor... interceptors) {
        Requires.notNull(key, "key");
        for (Interceptor interceptor : interceptors) {
            Requires.notNull(interceptor, "interceptor");
        }
        runtime.intercept(key.directory(), List.of(interceptors));
        return this;
    }

    /**
     * Runs the calls of the registered service {@code key} on {@code executor} instead of the server's pool (or
     * executor); methods that run on the IO threads (declared or learned {@link NonBlocking}) still do. The executor
     * is the application's: the server never shuts it down. At most {@link Builder#queueCapacity} calls are handed to
     * it and not finished at once; further ones are answered {@code SERVER_BUSY}, as are calls it refuses.
     *
     * @throws IllegalStateException if no service is registered under {@code key}
     */
    public JupiterServer executor(ServiceKey key, Executor executor) {
        Requires.notNull(key, "key");
        runtime.executor(key.directory(), Requires.notNull(executor, "executor"));
        return this;
    }

    /**
     * Pins the serializers the registered service {@code key} accepts: a request written with any other is answered
     * {@code BAD_REQUEST} naming the accepted ones, before its arguments are read (the connection stays open).
     * Default: every serializer the server accepts ({@link Builder#serializers}).
     *
     * @throws IllegalStateException if no service is registered under {@code key}
     */
    public JupiterServer pinSerializers(ServiceKey key, SerializerType... types) {
        Requires.notNull(key, "key");
        Requires.argument(types.length > 0, "pinSerializers: none (expected: at least one)");
        runtime.pinSerializers(key.directory(), EnumSet.of(types[0], types));
        return this;
    }

    /**
     * Binds the port (or the Unix domain socket, or the in-process name) and starts serving; returns once bound.
     *
     * @return the bound TCP address (the real port when configured with port 0); {@code null} for a server on a Unix
     *         domain socket or in process, whose address {@link #boundAddress()} gives
     */
    public InetSocketAddress start() {
        bound = runtime.start();
        if (bound instanceof InetSocketAddress tcp) {
            // Only a TCP server has a registry (checked when built).
            publication.start(tcp, runtime.services().stream().map(ServiceEntry::key).toList());
        }
        return bound instanceof InetSocketAddress tcp ? tcp : null;
    }

    /**
     * Waits until the registry has accepted every service published so far (true at once without a registry).
     *
     * @return whether that happened within the timeout
     */
    public boolean awaitPublished(long timeoutMillis) throws InterruptedException {
        return publication.awaitPublished(timeoutMillis);
    }

    /** Withdraws every service from the registry; the server keeps serving the consumers still calling it. */
    public void unpublishAll() {
        publication.unpublishAll();
    }

    /**
     * Shuts down without failing a call: withdraws the services from the registry, waits (up to half the timeout)
     * until consumers stop sending, i.e. no request arrived for {@link Builder#shutdownQuietMillis} (200 ms),
     * lets the calls already accepted finish and their responses go out (requests arriving meanwhile are answered
     * SERVER_BUSY, which a consumer may retry elsewhere), then closes.
     *
     * @return whether everything finished within the timeout (the server is closed either way)
     */
    public boolean shutdownGracefully(long timeoutMillis) {
        Requires.positive(timeoutMillis, "timeoutMillis");
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        boolean drained;
        try {
            if (publication.isActive()) {
                unpublishAll();
                Publication.awaitQuiet(runtime::receivedCount, shutdownQuietMillis,
                        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis / 2));
            }
            drained = runtime.drain(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (!drained) {
                log.warn("graceful shutdown of {} did not finish within {} ms", bound, timeoutMillis);
            }
        } finally {
            close();
        }
        return drained;
    }

    /**
     * The bound TCP address, or {@code null} before {@link #start()} and for a server on a Unix domain socket or in
     * process (see {@link #boundAddress()}).
     */
    public InetSocketAddress localAddress() {
        return runtime.localAddress() instanceof InetSocketAddress tcp ? tcp : null;
    }

    /**
     * The bound address of any kind ({@link InetSocketAddress}, {@link UnixDomainSocketAddress} or
     * {@link InProcessAddress}), or {@code null} before {@link #start()}. Consumers reach it with
     * {@code proxy(...).address(TransportAddresses.format(server.boundAddress()))}.
     */
    public SocketAddress boundAddress() {
        return runtime.localAddress();
    }

    /** The number of client connections open now. */
    public int connectionCount() {
        return runtime.connectionCount();
    }

    /**
     * The transport's counts of what its peers did wrong since the server started: connections closed for malformed
     * frames, slow bodies, heartbeat floods, not reading, idleness or errors, refused accepts, and the log lines not
     * printed because they were throttled (docs/security.md). Readable from any thread; for metrics.
     */
    public PeerIncidents peerIncidents() {
        return runtime.peerIncidents();
    }

    /** The keys of the registered services. */
    public List<ServiceKey> providedServices() {
        return runtime.services().stream().map(ServiceEntry::key).sorted(
                Comparator.comparing(ServiceKey::toString)).toList();
    }

    /** The provider-side metrics of this server. */
    public RpcMetrics metrics() {
        return runtime.metrics();
    }

    /**
     * Closes at once: leaves the registry, closes every connection (calls in flight fail on the consumer), stops
     * accepting and stops the provider threads. See {@link #shutdownGracefully(long)}.
     */
    @Override
    public void close() {
        publication.close();
        runtime.close();
    }

    private static boolean isWildcard(String host) {
        return host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]");
    }

    private static Class<?> serviceInterfaceOf(Class<?> type) {
        Class<?> only = null;
        int count = 0;
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Class<?> candidate : c.getInterfaces()) {
                if (candidate.isAnnotationPresent(ServiceProvider.class)) {
                    return candidate;
                }
                only = candidate;
                count++;
            }
        }
        if (count != 1) {
            throw new IllegalArgumentException(type.getName() + " implements " + count
                    + " interfaces and none is annotated @ServiceProvider: name the service interface");
        }
        return only;
    }

    /** Builds a {@link JupiterServer}. */
    public static final class Builder {
        private String host = "0.0.0.0";
        private int port = 18090;
        private SocketAddress bindAddress;
        private TransportConfig transportConfig = TransportConfig.builder().threadNamePrefix("jupiter-acceptor")
                .writerIdleMillis(0).build();
        private int providerThreads = JupiterSettings.PROVIDER_THREADS.get();
        private int queueCapacity = JupiterSettings.QUEUE_CAPACITY.get();
        private long queueTargetMillis = JupiterSettings.QUEUE_TARGET_MILLIS.get();
        private long queueIntervalMillis = JupiterSettings.QUEUE_INTERVAL_MILLIS.get();
        private int poolParallelism = JupiterSettings.POOL_PARALLELISM.get();
        private long poolStallMicros = JupiterSettings.POOL_STALL_MICROS.get();
        private long poolSpinMicros = JupiterSettings.POOL_SPIN_MICROS.get();
        private int maxInFlightPerConnection = JupiterSettings.MAX_IN_FLIGHT_PER_CONNECTION.get();
        private long maxQueuedBytesPerConnection = JupiterSettings.MAX_QUEUED_BYTES_PER_CONNECTION.get();
        private int streamInboundWindow = JupiterSettings.STREAM_INBOUND_WINDOW.get();
        private long streamConnectionBufferBytes = JupiterSettings.STREAM_CONNECTION_BUFFER_BYTES.get();
        private int streamWindowBytes = JupiterSettings.STREAM_WINDOW_BYTES.get();
        private long streamConnectionWindowBytes = JupiterSettings.STREAM_CONNECTION_WINDOW_BYTES.get();
        private int streamThreads = JupiterSettings.STREAM_THREADS.get();
        private long streamOpenWaitMillis = JupiterSettings.STREAM_OPEN_WAIT_MILLIS.get();
        private String registry;
        private String advertisedHost;
        private int weight = RegisterMeta.DEFAULT_WEIGHT;
        private int connCount = JupiterSettings.SUGGESTED_CONNECTION_COUNT.get();
        private Set<SerializerType> serializers = defaultSerializers();
        private ClassAllowList allowList = ClassAllowList.global();
        private ReadLimits readLimits = ReadLimits.defaults();
        private final List<Interceptor> interceptors = new ArrayList<>();
        private final List<ServerProtocol> protocols = new ArrayList<>();
        private FlowLimiter appFlowLimiter;
        private boolean metrics = RpcMetrics.enabledByDefault();
        private boolean sendStackTraces = JupiterSettings.SEND_STACK_TRACES.get();
        private Executor executor;
        private boolean virtualThreads;
        private boolean adaptiveDispatch = JupiterSettings.ADAPTIVE_DISPATCH.get();
        private boolean adaptiveConcurrency = JupiterSettings.ADAPTIVE_CONCURRENCY.get();
        private CallerIdentifier callerIdentifier;
        private TokenAuthenticator tokenAuthenticator;
        private long callerTokenTimeoutMillis = JupiterSettings.CALLER_TOKEN_TIMEOUT_MILLIS.get();
        private long refusalLogIntervalMillis = JupiterSettings.REFUSAL_LOG_INTERVAL_MILLIS.get();
        private long shutdownQuietMillis = JupiterSettings.SHUTDOWN_QUIET_MILLIS.get();
        private Authorizer authorizer;

        private Builder() {
        }

        /** The address to bind; default {@code 0.0.0.0}. */
        public Builder host(String host) {
            this.host = Requires.notBlank(host, "host");
            this.bindAddress = null;
            return this;
        }

        /** The port; default 18090 (1.3.1's); 0 picks a free one. */
        public Builder port(int port) {
            this.port = Requires.inRange(port, 0, 65535, "port");
            this.bindAddress = null;
            return this;
        }

        /**
         * Serves on the Unix domain socket {@code path} instead of a TCP port (Linux, native epoll). The same
         * protocol, limits and pipeline; no TLS and no registry (consumers call it by the path,
         * {@code address("unix:" + path)}). A leftover socket file nothing accepts on is replaced; the file is
         * made {@code rw-------}, so only processes of the same user can connect (widen it after start if others
         * should), and is deleted on close. Calling {@link #host} or {@link #port} afterwards goes back to TCP.
         */
        public Builder unixSocket(Path path) {
            this.bindAddress = UnixDomainSocketAddress.of(Requires.notNull(path, "unixSocket"));
            return this;
        }

        /**
         * Serves in this JVM only, under {@code name} (unique in the JVM): consumers of the same process call it with
         * {@code address("inprocess:" + name)}, with no socket, through the same protocol and pipeline. For tests
         * and co-located services; no TLS and no registry. Calling {@link #host} or {@link #port} afterwards goes
         * back to TCP.
         */
        public Builder inProcess(String name) {
            this.bindAddress = InProcessAddress.of(name);
            return this;
        }

        /** Transport settings (idle timeout, IO threads, body cap, ...); see {@link TransportConfig}. */
        public Builder transportConfig(TransportConfig config) {
            this.transportConfig = Requires.notNull(config, "transportConfig");
            return this;
        }

        /**
         * Provider threads; default {@code max(4, 2 x processors)}. 0 runs every request on its IO thread: only for
         * services that never block.
         */
        public Builder providerThreads(int threads) {
            this.providerThreads = JupiterSettings.PROVIDER_THREADS.check(threads);
            return this;
        }

        /**
         * Whether a method declared neither {@link NonBlocking @NonBlocking} nor {@code @NonBlocking(false)} moves from
         * the provider pool to the IO threads once it has proved fast, which saves two thread hand-offs per call;
         * default off ({@code -Djupiter.rpc.provider.adaptive.dispatch}): one slow call of a learned method (a cache
         * miss that waits on a database) stalls every connection its IO thread serves, callers of unrelated services
         * included, so the framework does not take that risk for the user ({@link NonBlocking @NonBlocking} is the
         * explicit fast path). On, a method starts on the pool; after 1,000
         * calls there of which at most 1 % took 100 µs or more, none 2 ms or more, and none waited for a synchronous
         * call of another service, it runs on the IO thread that read its request. A call that then takes 2 ms or
         * more sends it back to the pool, to prove itself again over a window ten times longer each time it fails
         * one; a method that waits for a synchronous call stays on the pool for good. So a method that blocks only
         * now and then may stall an IO thread a few times before it stays on the pool: declare it
         * {@code @NonBlocking(false)}, or turn this off, to rule that out. Off: undeclared methods always run on the
         * pool.
         */
        public Builder adaptiveDispatch(boolean adaptive) {
            this.adaptiveDispatch = adaptive;
            return this;
        }

        /**
         * An adaptive concurrency limit on this server (default off): it admits at most a limit of requests at
         * once, counted from admission (before the body is read or the request queued) until the answer, or until
         * the thread that ran the method returns, or the request is dropped. The limit is learned from the
         * requests' latency in the manner of Netflix concurrency-limits' Gradient2: it shrinks while latency rises
         * with concurrency, grows while it does not; between 4 and 1000, starting at 20. A request beyond it is
         * answered {@code SERVER_BUSY} at once ("provider busy: ... at its adaptive concurrency limit of N"), counted
         * as a rejection; the method never ran, so a consumer may retry it elsewhere. One limit for the server's
         * requests (streams are not counted). Off by default: the queue's own shedding already bounds the wait, and
         * measured figures are in docs/reliability.md.
         */
        public Builder adaptiveConcurrency(boolean adaptive) {
            this.adaptiveConcurrency = adaptive;
            return this;
        }

        /**
         * Runs provider calls on {@code executor} instead of the built-in pool ({@link #providerThreads} is then
         * unused). The executor is the application's: the server never shuts it down. At most
         * {@link #queueCapacity} calls are handed to it and not finished at once; further ones, and those it refuses,
         * are answered {@code SERVER_BUSY}. Methods that run on the IO threads ({@link NonBlocking}, declared or
         * learned) still do.
         */
        public Builder executor(Executor executor) {
            this.executor = Requires.notNull(executor, "executor");
            this.virtualThreads = false;
            return this;
        }

        /**
         * Runs every provider call that does not run on an IO thread on a new virtual thread (JDK 21 and later), for
         * services whose methods block: a blocked call then holds no platform thread, so thousands can wait at once.
         * At most {@link #queueCapacity} calls run at once; further ones are answered {@code SERVER_BUSY}. The server
         * owns these threads and waits for them when it closes.
         *
         * @throws UnsupportedOperationException before JDK 21
         */
        public Builder virtualThreads() {
            if (!VirtualThreads.available()) {
                throw new UnsupportedOperationException("virtualThreads() needs JDK 21 or later; this is Java "
                        + Runtime.version().feature() + " (use providerThreads or executor instead)");
            }
            this.virtualThreads = true;
            this.executor = null;
            return this;
        }

        /** Requests that may queue for a provider thread before new ones get {@code SERVER_BUSY}; default 8192. */
        public Builder queueCapacity(int capacity) {
            this.queueCapacity = JupiterSettings.QUEUE_CAPACITY.check(capacity);
            return this;
        }

        /**
         * The built-in pool's queue stands once, for 100 ms, its oldest request had always waited longer than this
         * (CoDel's target); it then sheds ({@code SERVER_BUSY}) what waited beyond {@link #queueIntervalMillis} and
         * serves the newest first. Default 5 ms ({@code -Djupiter.rpc.provider.queue.target.millis}); 0: the queue
         * never counts as standing (1.3.1's queue). See docs/reliability.md.
         */
        public Builder queueTargetMillis(long millis) {
            this.queueTargetMillis = JupiterSettings.QUEUE_TARGET_MILLIS.check(millis);
            return this;
        }

        /**
         * The longest a request may wait for a thread of the built-in pool while its queue stands (the newest is
         * served first from half of it). Default 1 s ({@code -Djupiter.rpc.provider.queue.interval.millis}).
         */
        public Builder queueIntervalMillis(long millis) {
            this.queueIntervalMillis = JupiterSettings.QUEUE_INTERVAL_MILLIS.check(millis);
            return this;
        }

        /**
         * Threads of the built-in pool that run calls at once before a new call wakes another (blocked ones aside: a
         * call that waited {@link #poolStallMicros} wakes one anyway). Default half the processors, at least 1
         * ({@code -Djupiter.rpc.pool.parallelism}).
         */
        public Builder poolParallelism(int threads) {
            this.poolParallelism = JupiterSettings.POOL_PARALLELISM.check(threads);
            return this;
        }

        /**
         * How long a call may wait, every awake thread of the built-in pool busy, before it wakes another; default
         * 1 ms ({@code -Djupiter.rpc.pool.stall.micros}).
         */
        public Builder poolStallMicros(long micros) {
            this.poolStallMicros = JupiterSettings.POOL_STALL_MICROS.check(micros);
            return this;
        }

        /**
         * How long one idle thread of the built-in pool keeps looking for work before it parks; default 0 (parks at
         * once; {@code -Djupiter.rpc.pool.spin.micros}). Helps one caller at a time on a machine with spare cores,
         * costs throughput on a busy one (benchmark.md).
         */
        public Builder poolSpinMicros(long micros) {
            this.poolSpinMicros = JupiterSettings.POOL_SPIN_MICROS.check(micros);
            return this;
        }

        /**
         * Messages of a consumer's stream (client streaming, bidirectional) this server takes ahead of what its
         * method has read (default 1,024, at most 65,536; fewer when its messages are larger than 1 KiB, as the
         * stream's byte window, {@code jupiter.rpc.stream.window.bytes}, comes first): the credit it grants, so the
         * most of one such stream it holds. A consumer that earned credit with small messages and then sends large
         * ones has its stream ended {@code BAD_REQUEST} once it holds 64 byte windows unread; a smaller window
         * holds such a consumer closer.
         */
        public Builder streamInboundWindow(int messages) {
            this.streamInboundWindow = JupiterSettings.STREAM_INBOUND_WINDOW.check(messages);
            return this;
        }

        /**
         * Bytes the streams of one connection may buffer together beyond their receivers' credit (default 4 MiB):
         * each stream's own buffer is capped by its {@code StreamOptions}, and this caps them all together. The same
         * number caps, apart, the bytes they sent against credit that the connection's IO thread has not yet taken,
         * whatever credit the receivers granted. A send that would go beyond meets its stream's slow-consumer policy:
         * {@code WAIT} holds the producer until bytes drain, the drop policies drop, {@code FAIL} ends the stream
         * with {@code SLOW_CONSUMER}.
         */
        public Builder streamConnectionBufferBytes(long bytes) {
            this.streamConnectionBufferBytes = JupiterSettings.STREAM_CONNECTION_BUFFER_BYTES.check(bytes);
            return this;
        }

        /**
         * Bytes of frames one receiving stream lets be on their way or queued (default 1 MiB,
         * {@code -Djupiter.rpc.stream.window.bytes}): the credit it grants is sized from its messages' recent sizes
         * to fit. For the streams of consumers (client streaming, bidirectional) this server reads.
         */
        public Builder streamWindowBytes(int bytes) {
            this.streamWindowBytes = JupiterSettings.STREAM_WINDOW_BYTES.check(bytes);
            return this;
        }

        /**
         * Bytes the receiving streams of one connection may hold together, arrived and not yet read (default 8 MiB,
         * {@code -Djupiter.rpc.stream.connection.window.bytes}): beyond, none of them grants credit until a reader
         * takes bytes out. For the streams of consumers this server reads.
         */
        public Builder streamConnectionWindowBytes(long bytes) {
            this.streamConnectionWindowBytes = JupiterSettings.STREAM_CONNECTION_WINDOW_BYTES.check(bytes);
            return this;
        }

        /**
         * Streams that may hold a thread of this server at once, across every connection (default 512): an open
         * while its method runs (a method reading the consumer's messages with a blocking iterator holds it as long
         * as the stream lasts) and a sink-driven producer. An open beyond waits its turn a while
         * ({@link #streamOpenWaitMillis}); a producer beyond is refused with {@code SERVER_BUSY}.
         */
        public Builder streamThreads(int streams) {
            this.streamThreads = JupiterSettings.STREAM_THREADS.check(streams);
            return this;
        }

        /**
         * How long an open waits, in order, for one of the {@link #streamThreads} to be given back before it is
         * refused {@code SERVER_BUSY} (default 1 s, {@code -Djupiter.rpc.stream.open.wait.millis}; 0: refused at
         * once). At most 4,096 opens and 16 MiB of their bodies wait, across every connection; beyond, an open is
         * refused at once. A burst of opens whose methods return quickly (a topic's subscribers coming back after a
         * restart) is then served as threads turn over.
         */
        public Builder streamOpenWaitMillis(long millis) {
            this.streamOpenWaitMillis = JupiterSettings.STREAM_OPEN_WAIT_MILLIS.check(millis);
            return this;
        }

        /**
         * Whether the exceptions a method throws reach callers with their stack traces (and those of their causes);
         * default off ({@code -Djupiter.rpc.provider.stack.traces}): a remote peer learns the exception's class and
         * message, never the provider's code paths. Turn on only where every caller is trusted.
         */
        public Builder sendStackTraces(boolean send) {
            this.sendStackTraces = send;
            return this;
        }

        /**
         * What one connection may have in flight before its new requests get {@code SERVER_BUSY} (safe to retry):
         * {@code requests} queued, being read or running (default 4096, half the default queue, and as many as one
         * of our clients keeps in flight), and {@code bytes} of request bodies not read yet (default 64 MiB). So one
         * connection cannot take the whole queue or fill the memory with unread bodies.
         */
        public Builder connectionLimits(int requests, long bytes) {
            this.maxInFlightPerConnection = JupiterSettings.MAX_IN_FLIGHT_PER_CONNECTION.check(requests);
            this.maxQueuedBytesPerConnection = JupiterSettings.MAX_QUEUED_BYTES_PER_CONNECTION.check(bytes);
            return this;
        }

        /**
         * Protostuff, hessian and kryo, those of them on the class path ({@code jupiter-rpc} brings protostuff; the
         * others come with their modules or {@code jupiter-all}), so a server built with {@code jupiter-rpc} alone
         * works.
         */
        private static Set<SerializerType> defaultSerializers() {
            Set<SerializerType> present = EnumSet.noneOf(SerializerType.class);
            for (SerializerType type : EnumSet.of(SerializerType.PROTOSTUFF, SerializerType.HESSIAN,
                    SerializerType.KRYO)) {
                if (Serializers.find(type.code()) != null) {
                    present.add(type);
                }
            }
            return present.isEmpty() ? EnumSet.of(SerializerType.PROTOSTUFF) : present;
        }

        /**
         * The serializers requests may use; default protostuff, hessian and kryo, those of them on the class path.
         * Java serialization is off unless listed here: it can run code named by the peer. One listed here that is
         * not on the class path fails {@link #build} with a message naming the artifact to add.
         */
        public Builder serializers(SerializerType... types) {
            Requires.argument(types.length > 0, "serializers: none (expected: at least one)");
            this.serializers = EnumSet.of(types[0], types);
            return this;
        }

        /**
         * The class allow-list this server's serializers check every class name of a request against. Default
         * {@link ClassAllowList#global()}; the types of each registered service interface are trusted in the list
         * the server uses.
         */
        public Builder allowList(ClassAllowList allowList) {
            this.allowList = Requires.notNull(allowList, "allowList");
            return this;
        }

        /**
         * How deep a request's values may nest and how many references one body may hold, for this server alone.
         * Default {@link ReadLimits#defaults()} (the {@code maxDepth} and {@code maxReferences} settings); a request
         * beyond them is answered {@code BAD_REQUEST}, saying which limit it broke.
         */
        public Builder readLimits(ReadLimits readLimits) {
            this.readLimits = Requires.notNull(readLimits, "readLimits");
            return this;
        }

        /**
         * Adds an interceptor (or a {@link io.jupiter.rpc.filter.Filter}, such as a
         * {@link io.jupiter.rpc.flow.FlowControlFilter}) around every request of every service.
         */
        public Builder interceptor(Interceptor interceptor) {
            interceptors.add(Requires.notNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * Publishes every registered service to a registry once started, e.g. {@code default://127.0.0.1:20001}
         * or {@code zookeeper://127.0.0.1:2181}.
         */
        public Builder registry(String url) {
            this.registry = Requires.notBlank(url, "registry");
            return this;
        }

        /** The host consumers should connect to; default: the bind host, or the registry's view if wildcard. */
        public Builder advertisedHost(String host) {
            this.advertisedHost = Requires.notBlank(host, "advertisedHost");
            return this;
        }

        /** The published weight, 0 to 100; default 50 (1.3.1's default weight). */
        public Builder weight(int weight) {
            this.weight = Requires.inRange(weight, 0, RegisterMeta.MAX_WEIGHT, "weight");
            return this;
        }

        /**
         * The application-wide flow limiter, asked on the IO thread for every request before its body is read; a
         * refused request is answered {@code APP_FLOW_CONTROL} at once. Released when the request's task ended (a
         * method returning a {@code CompletionStage} counts until it returned the stage). Default: none.
         */
        public Builder appFlowLimiter(FlowLimiter limiter) {
            this.appFlowLimiter = Requires.notNull(limiter, "appFlowLimiter");
            return this;
        }

        /**
         * Whether to record metrics ({@link JupiterServer#metrics()}); default on ({@code -Djupiter.metrics.enabled}).
         */
        public Builder metrics(boolean enabled) {
            this.metrics = enabled;
            return this;
        }

        /**
         * Connections each consumer should keep to this provider; default {@code min(processors, 4)}
         * ({@code -Djupiter.rpc.suggest.connection.count}, as in 1.3.1).
         */
        public Builder connCount(int count) {
            this.connCount = JupiterSettings.SUGGESTED_CONNECTION_COUNT.check(count);
            return this;
        }

        /**
         * Establishes who is on the other end of each connection, once when it opens ({@link CallerIdentity}, seen
         * by the {@link #authorizer} and by interceptors as {@link io.jupiter.rpc.filter.Invocation#caller()});
         * default: every caller is {@link CallerIdentity#ANONYMOUS}. Not with a {@link #tokenAuthenticator}.
         */
        public Builder callerIdentifier(CallerIdentifier identifier) {
            this.callerIdentifier = Requires.notNull(identifier, "callerIdentifier");
            return this;
        }

        /**
         * Requires every connection to present a caller token first
         * ({@link io.jupiter.rpc.JupiterClient.Builder#callerToken(String)}) and names its caller by it, once, for
         * the {@link #authorizer} and interceptors. A connection without a token, or whose token is refused, has its
         * first request answered {@code BAD_REQUEST} ("caller token missing" / "caller token refused"), none of its
         * requests read, and is closed. Send tokens over TLS ({@link TransportConfig#tls()}): they are secrets.
         * Default: none, no token is asked for, and a connection that sends one anyway is closed, as by 1.3.1. Not
         * with a {@link #callerIdentifier}. The built-in one is {@link TokenAuthenticator#of}.
         */
        public Builder tokenAuthenticator(TokenAuthenticator authenticator) {
            this.tokenAuthenticator = Requires.notNull(authenticator, "tokenAuthenticator");
            return this;
        }

        /**
         * With a {@link #tokenAuthenticator}: a connection that has not presented its caller token this long after
         * it opened is closed, whatever else it sent (heartbeats included). Default 10 s
         * ({@code -Djupiter.rpc.caller.token.timeout.millis}).
         */
        public Builder callerTokenTimeoutMillis(long millis) {
            this.callerTokenTimeoutMillis = JupiterSettings.CALLER_TOKEN_TIMEOUT_MILLIS.check(millis);
            return this;
        }

        /**
         * The refusals a peer causes (a caller token missing or refused, a call or stream open its caller may not
         * make, a body that cannot be read, a frame a provider does not take) are logged at most once this often for
         * each peer IP and cause; the next line says how many were dropped meanwhile. Every refusal is answered and
         * counted all the same. Default 1 min ({@code -Djupiter.rpc.refusal.log.interval.millis}).
         */
        public Builder refusalLogIntervalMillis(long millis) {
            this.refusalLogIntervalMillis = JupiterSettings.REFUSAL_LOG_INTERVAL_MILLIS.check(millis);
            return this;
        }

        /**
         * How long no request may arrive before {@link JupiterServer#shutdownGracefully} takes the consumers to have
         * stopped sending, once the services left the registry; default 200 ms
         * ({@code -Djupiter.rpc.shutdown.quiet.millis}). Each server has its own.
         */
        public Builder shutdownQuietMillis(long millis) {
            this.shutdownQuietMillis = JupiterSettings.SHUTDOWN_QUIET_MILLIS.check(millis);
            return this;
        }

        /**
         * Decides per service and method which callers may call, from the request's envelope alone: a refused
         * request is answered {@code BAD_REQUEST} and its arguments are never read. Default: none, every caller may
         * call every method (as in 1.3.1). The built-in one is {@link AuthorizationRules}.
         */
        public Builder authorizer(Authorizer authorizer) {
            this.authorizer = Requires.notNull(authorizer, "authorizer");
            return this;
        }

        /**
         * Serves {@code protocols} beside the 1.3.1 protocol on the same port, each connection's protocol told by its
         * first bytes (e.g. {@code io.jupiter.protocol.http.HttpProtocols}: HTTP/JSON and gRPC); their requests go
         * through the same provider chain. None by default: the port then reads 1.3.1 frames only, exactly as
         * without this setting. See docs/protocols.md.
         */
        public Builder protocols(ServerProtocol... protocols) {
            for (ServerProtocol protocol : protocols) {
                this.protocols.add(Requires.notNull(protocol, "protocol"));
            }
            return this;
        }

        public JupiterServer build() {
            return new JupiterServer(this);
        }
    }
}
