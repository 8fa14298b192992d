package io.jupiter.rpc.internal.consumer;

import io.jupiter.common.NamedThreadFactory;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.rpc.ConsumedService;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.WorkerPool;
import io.jupiter.rpc.internal.balance.Endpoint;
import io.jupiter.rpc.internal.balance.EndpointSettings;
import io.jupiter.rpc.internal.balance.LoadBalancer;
import io.jupiter.rpc.internal.balance.OutlierDetector;
import io.jupiter.rpc.internal.stream.ConsumerStreams;
import io.jupiter.rpc.internal.stream.StreamWindows;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.rpc.protocol.ClientProtocol;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import io.netty.util.HashedWheelTimer;
import java.lang.reflect.Proxy;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Everything a client owns: the connector and its connections, the in-flight calls, the timeout wheel and the
 * threads that complete asynchronous calls.
 */
public final class ClientRuntime implements AutoCloseable {

    private final InFlightCalls calls;
    private final CallCancels cancels = new CallCancels(JupiterSettings.CANCEL_CALLS.get());
    private final ConsumerStreams streams = new ConsumerStreams();
    private final Connector connector;
    private final HashedWheelTimer timer;
    /** Threads that complete async calls; {@code null}: the IO threads do. */
    private final WorkerPool pool;
    /** The application's executor for the same, instead of {@link #pool}; {@code null}: none. */
    private final Executor callbackExecutor;
    private final boolean adaptiveCallbacks;
    private final RpcMetrics metrics;
    private final List<Consumed> consumed = new CopyOnWriteArrayList<>();
    private final SharedGroups groups;
    private final Map<String, RegistryService> registries = new ConcurrentHashMap<>();
    private final List<Directory> directories = new CopyOnWriteArrayList<>();
    /** The foreign protocols of this client's proxies, and the groups they opened: closed with the client. */
    private final Set<ClientProtocol> protocols = ConcurrentHashMap.newKeySet();
    private final List<ConnectionGroup> foreignGroups = new CopyOnWriteArrayList<>();
    /** What every endpoint this client makes from now on gets: warm-up and latency decay. */
    private volatile EndpointSettings endpointSettings = EndpointSettings.fromSettings();
    private volatile boolean closed;

    /**
     * @param consumerThreads  threads that read async responses and run callbacks; 0 does it on the IO threads;
     *                         unused with a {@code callbackExecutor}
     * @param callbackExecutor the application's executor that reads async responses and runs callbacks instead;
     *                         {@code null}: the consumer threads
     * @param adaptiveCallbacks whether completions of a proxy method's async calls move from the consumer threads
     *                         to the IO threads once they prove fast ({@link io.jupiter.rpc.internal.AdaptiveDispatch})
     * @param maxInFlight      calls that may wait for a response at once; more wait for a slot (back-pressure)
     * @param poolStallMicros  how long a completion waits, every awake consumer thread busy, before it wakes another
     * @param callerToken      the token sent first on every connection, asked for at each one; {@code null}: none
     */
    public ClientRuntime(TransportConfig transportConfig, int consumerThreads, Executor callbackExecutor,
                         boolean adaptiveCallbacks, RpcMetrics metrics, int maxInFlight, long poolStallMicros,
                         Supplier<String> callerToken) {
        this.metrics = metrics;
        streams.metrics(metrics);
        this.adaptiveCallbacks = adaptiveCallbacks;
        this.callbackExecutor = callbackExecutor;
        this.calls = new InFlightCalls(maxInFlight);
        // Stream frames and announcements are accepted too: only a provider that announced streams sends them.
        this.connector = TransportFactory.load().newConnector(
                transportConfig.toBuilder().acceptedMessageCodes(ProtocolHeader.CONSUMER_MESSAGE_CODES).build(),
                new ConsumerFrameHandler(calls, cancels, metrics,
                        callerToken == null ? null : new CallerTokenSender(callerToken), streams));
        this.timer = new HashedWheelTimer(new NamedThreadFactory("jupiter-timeout", true), 10, TimeUnit.MILLISECONDS,
                512);
        new TimeoutSweep(calls, timer).start();
        // A provider that left is disconnected after this grace, so calls still in flight on it can finish.
        this.groups = new SharedGroups(connector, timer,
                JupiterSettings.REMOVED_PROVIDER_GRACE_MILLIS.get());
        // Every thread may run callbacks at once; a thread is woken only when none is looking for work, so a read
        // that completes twenty calls wakes one thread, not twenty. Completions beyond the queue (callbacks slower
        // than responses arrive, twice the in-flight window) run on the IO thread: back-pressure, nothing lost.
        this.pool = callbackExecutor == null && consumerThreads > 0
                ? new WorkerPool("jupiter-consumer", consumerThreads, Math.max(1024, 2 * maxInFlight), consumerThreads,
                        TimeUnit.MICROSECONDS.toNanos(poolStallMicros), 0)
                : null;
        if (callbackExecutor == null && consumerThreads == 0) {
            streams.deliverOnIoThreads();
        }
    }

    /** Sets the byte windows of the providers' streams this client reads, for the connections that open next. */
    public void streamWindows(StreamWindows windows) {
        streams.windows(windows);
    }

    /** A proxy of {@code settings.serviceInterface} calling the given addresses. */
    public <T> T newProxy(ProxySettings settings, Serializer serializer, List<SocketAddress> addresses,
                          int connectionsPerAddress) {
        checkOpen();
        ClientProtocol protocol = settings.protocol;
        if (protocol != null) {
            protocol.checkInterface(settings.serviceInterface);
            protocols.add(protocol);
        }
        List<Endpoint> endpoints = new ArrayList<>();
        for (SocketAddress address : addresses) {
            ConnectionGroup group;
            if (protocol == null) {
                group = groups.acquire(address, connectionsPerAddress);
            } else {
                group = protocol.connect(address, connectionsPerAddress);
                foreignGroups.add(group);
            }
            // Direct addresses: 1.3.1's default weight, no warm-up.
            endpoints.add(new Endpoint(address, group, RegisterMeta.DEFAULT_WEIGHT, connectionsPerAddress,
                    endpointSettings.withWarmUpMillis(0)));
        }
        Directory directory = new Directory(settings.addresses.toString());
        directory.update(endpoints.toArray(new Endpoint[0]));
        LoadBalancerType balancer = settings.loadBalancer != null ? settings.loadBalancer
                : LoadBalancerType.byDefault();
        return proxy(settings, serializer, directory, selector(settings, directory, balancer));
    }

    /**
     * A proxy of {@code settings.serviceInterface} calling the providers a registry reports: the client keeps the
     * connections each provider asks for, and follows providers as they come and go.
     */
    public <T> T newProxy(ProxySettings settings, Serializer serializer, String registryUrl) {
        checkOpen();
        RegistryService registry = registry(registryUrl);
        ServiceKey key = settings.key;
        RegistryDirectory directory = new RegistryDirectory(key + " via " + registryUrl, groups, endpointSettings,
                registry, timer);
        directories.add(directory);
        registry.subscribe(new ServiceMeta(key.group(), key.name(), key.version()), directory);
        LoadBalancerType balancer = settings.loadBalancer != null ? settings.loadBalancer
                : LoadBalancerType.byDefault();
        return proxy(settings, serializer, directory, selector(settings, directory, balancer));
    }

    private ConnectionSelector selector(ProxySettings settings, Directory directory, LoadBalancerType balancer) {
        OutlierDetector detector = new OutlierDetector(settings.outlierEjection,
                settings.key + " -> " + directory, metrics);
        return new ConnectionSelector(directory, LoadBalancer.of(balancer), detector,
                settings.outlierEjection.enabled());
    }

    /** Warm-up of providers found through a registry from now on; 0 disables. */
    public void warmUpMillis(long millis) {
        this.endpointSettings = endpointSettings.withWarmUpMillis(millis);
    }

    /** Whether this client asks providers about cancels and tells those that take them; set before the first call. */
    public void cancelCalls(boolean enabled) {
        cancels.enabled(enabled);
    }

    /** The time constant of the latency decay of the providers of proxies made from now on. */
    public void latencyDecayMillis(long millis) {
        this.endpointSettings = endpointSettings.withLatencyDecayMillis(millis);
    }

    /** What the endpoints of proxies made from now on get. */
    public EndpointSettings endpointSettings() {
        return endpointSettings;
    }

    /** The registry client for a URL, connected on first use and shared by every proxy of this client. */
    public RegistryService registry(String url) {
        checkOpen();
        return registries.computeIfAbsent(url, Registries::connect);
    }

    private <T> T proxy(ProxySettings settings, Serializer serializer, Directory directory,
                        ConnectionSelector selector) {
        ServiceInvoker invoker = new ServiceInvoker(settings,
                new Dispatch(settings, serializer, selector, calls, cancels, timer, pool, callbackExecutor,
                        adaptiveCallbacks, metrics), settings.protocol == null ? streams : null, serializer);
        consumed.add(new Consumed(settings, directory));
        Object proxy = Proxy.newProxyInstance(settings.serviceInterface.getClassLoader(),
                new Class<?>[] {settings.serviceInterface}, invoker);
        return cast(proxy);
    }

    public RpcMetrics metrics() {
        return metrics;
    }

    /** A snapshot of the proxies built so far: service, addresses and their open connections. */
    public List<ConsumedService> consumed() {
        List<ConsumedService> views = new ArrayList<>();
        for (Consumed c : consumed) {
            List<ConsumedService.Target> targets = new ArrayList<>();
            for (Endpoint endpoint : c.directory.endpoints()) {
                targets.add(new ConsumedService.Target(endpoint.address(),
                        endpoint.group().activeConnections().size()));
            }
            views.add(new ConsumedService(c.settings.key, c.settings.serviceInterface.getName(), targets));
        }
        return views;
    }

    private record Consumed(ProxySettings settings, Directory directory) {
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("client is closed");
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object proxy) {
        return (T) proxy;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (RegistryService registry : registries.values()) {
            registry.close();
        }
        for (Directory directory : directories) {
            directory.close();
        }
        groups.closeAll();
        for (ConnectionGroup group : foreignGroups) {
            group.close();
        }
        for (ClientProtocol protocol : protocols) {
            protocol.close();
        }
        connector.close();
        streams.close();
        for (PendingCall call : calls.removeAll(c -> true)) {
            call.failed(new ConnectionException(StatusTable.CLIENT_ERROR.status(),
                    "client closed before the response to "
                    + call.method + " arrived"));
        }
        timer.stop();
        if (pool != null) {
            pool.shutdown();
            try {
                pool.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
