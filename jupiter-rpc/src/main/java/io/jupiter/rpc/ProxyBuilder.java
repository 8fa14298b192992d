package io.jupiter.rpc;

import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.balance.OutlierEjection;
import io.jupiter.rpc.cluster.ClientThrottling;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.cluster.HedgingPolicy;
import io.jupiter.rpc.cluster.RetryBudget;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.generic.GenericInvoker;
import io.jupiter.rpc.internal.consumer.ProxySettings;
import io.jupiter.rpc.protocol.ClientProtocol;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.TransportAddresses;
import java.lang.reflect.Method;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

/**
 * Builds a client proxy of one service interface. Defaults: protostuff, 3 s timeout (system property
 * {@code jupiter.rpc.invoke.timeout}), one connection per address, {@link InvokeType#SYNC}, version
 * {@code 1.0.0}, group and name from the interface's {@link ServiceProvider}.
 *
 * @param <T> the service interface
 */
public final class ProxyBuilder<T> {

    private final JupiterClient client;
    private final Class<T> serviceInterface;
    private final List<String> addresses = new ArrayList<>();
    private final Map<String, Long> methodTimeouts = new HashMap<>();
    private final List<Interceptor> interceptors = new ArrayList<>();
    private SerializerType serializer = SerializerType.PROTOSTUFF;
    private long timeoutMillis = JupiterSettings.INVOKE_TIMEOUT.get();
    private int connections = 1;
    private InvokeType invokeType = InvokeType.SYNC;
    private String version = ServiceKey.DEFAULT_VERSION;
    private String group;
    private String name;
    private String registry;
    private LoadBalancerType loadBalancer;
    private ClusterStrategy cluster = ClusterStrategy.failFast();
    private final Map<String, ClusterStrategy> methodClusters = new HashMap<>();
    private final Set<String> idempotentMethods = new HashSet<>();
    private OutlierEjection outlierEjection = OutlierEjection.defaults();
    private RetryBudget retryBudget = RetryBudget.defaults();
    private ClientThrottling clientThrottling = ClientThrottling.defaults();
    private HedgingPolicy hedging;
    private final Map<String, HedgingPolicy> methodHedging = new HashMap<>();
    private ClientProtocol protocol;

    ProxyBuilder(JupiterClient client, Class<T> serviceInterface) {
        this.client = client;
        this.serviceInterface = Requires.notNull(serviceInterface, "serviceInterface");
        Requires.argument(serviceInterface.isInterface(), serviceInterface.getName() + " is not an interface");
    }

    /**
     * Adds provider addresses to call directly: {@code host:port}, {@code unix:/path/to/socket} (a server on a Unix
     * domain socket, see {@link JupiterServer.Builder#unixSocket}), {@code inprocess:NAME} (a server in this JVM, see
     * {@link JupiterServer.Builder#inProcess}), or several of them separated by commas.
     */
    public ProxyBuilder<T> address(String hostPorts) {
        Requires.notBlank(hostPorts, "address");
        for (String part : hostPorts.split(",")) {
            parse(part.trim());
            addresses.add(part.trim());
        }
        return this;
    }

    /** Adds a provider address to call directly. */
    public ProxyBuilder<T> address(String host, int port) {
        return address(Requires.notBlank(host, "host") + ':' + Requires.inRange(port, 1, 65535, "port"));
    }

    /** Adds a provider serving on the Unix domain socket {@code path} (Linux, native epoll); no TLS. */
    public ProxyBuilder<T> unixSocket(Path path) {
        return address(TransportAddresses.UNIX_SCHEME + Requires.notNull(path, "unixSocket"));
    }

    /** Adds a provider serving in this JVM under {@code name} ({@link JupiterServer.Builder#inProcess}). */
    public ProxyBuilder<T> inProcess(String name) {
        return address(TransportAddresses.IN_PROCESS_SCHEME + Requires.notBlank(name, "inProcess"));
    }

    /**
     * Calls the providers with a foreign wire protocol instead of the 1.3.1 frame, for example gRPC
     * ({@code GrpcClientProtocol} of jupiter-protocol-http): the load balancing, cluster strategy, hedging, outlier
     * ejection, client throttling, interceptors and metrics of this proxy apply as they do to Jupiter providers. The
     * serializer setting is then unused (the protocol encodes the messages). Direct addresses only; the client
     * closes the protocol when it closes.
     */
    public ProxyBuilder<T> protocol(ClientProtocol protocol) {
        this.protocol = Requires.notNull(protocol, "protocol");
        return this;
    }

    /**
     * Finds the providers in a registry instead of calling fixed addresses: {@code default://host:port[,host:port]}
     * (the embedded registry) or {@code zookeeper://host:port[,host:port]}. Overrides the client's registry.
     */
    public ProxyBuilder<T> registry(String url) {
        this.registry = Requires.notBlank(url, "registry");
        return this;
    }

    /**
     * How calls are spread over providers; default {@link LoadBalancerType#LEAST_LATENCY} (or what
     * {@code -Djupiter.rpc.load.balancer} names).
     */
    public ProxyBuilder<T> loadBalancer(LoadBalancerType type) {
        this.loadBalancer = Requires.notNull(type, "loadBalancer");
        return this;
    }

    /**
     * What to do when a call fails; default {@link ClusterStrategy#failFast()}. {@link ClusterStrategy#broadcast()}
     * needs every method to be asynchronous (see {@link #build()}).
     */
    public ProxyBuilder<T> cluster(ClusterStrategy strategy) {
        this.cluster = Requires.notNull(strategy, "cluster");
        return this;
    }

    /** The cluster strategy of the methods named {@code methodName}, overriding {@link #cluster}. */
    public ProxyBuilder<T> methodCluster(String methodName, ClusterStrategy strategy) {
        methodClusters.put(Requires.notBlank(methodName, "methodName"), Requires.notNull(strategy, "strategy"));
        return this;
    }

    /**
     * Marks methods safe to run more than once: fail-over then also retries them after a timeout or a lost
     * connection, when the first provider may or may not have run the call.
     */
    public ProxyBuilder<T> idempotent(String... methodNames) {
        for (String methodName : methodNames) {
            idempotentMethods.add(Requires.notBlank(methodName, "methodName"));
        }
        return this;
    }

    /**
     * Outlier ejection of this proxy's providers: one whose calls time out or lose their connection several times in
     * a row leaves load balancing for a while; default {@link OutlierEjection#defaults()} (on);
     * {@link OutlierEjection#off()} disables it.
     */
    public ProxyBuilder<T> outlierEjection(OutlierEjection settings) {
        this.outlierEjection = Requires.notNull(settings, "outlierEjection");
        return this;
    }

    /**
     * The budget fail-over retries and hedges draw on, so that failures everywhere do not multiply the requests;
     * default {@link RetryBudget#defaults()}; {@link RetryBudget#unlimited()} retries whenever the strategy allows.
     */
    public ProxyBuilder<T> retryBudget(RetryBudget budget) {
        this.retryBudget = Requires.notNull(budget, "retryBudget");
        return this;
    }

    /**
     * Client-side throttling of this proxy's calls (SRE book, "Handling Overload"): while its providers refuse or
     * time out most calls, a share of new calls fails here at once with a
     * {@link io.jupiter.rpc.exception.ThrottledException}, sent nowhere; default {@link ClientThrottling#defaults()}
     * (off unless {@code jupiter.rpc.client.throttling}).
     */
    public ProxyBuilder<T> clientThrottling(ClientThrottling throttling) {
        this.clientThrottling = Requires.notNull(throttling, "clientThrottling");
        return this;
    }

    /**
     * Hedges the calls of this proxy's {@linkplain #idempotent idempotent} methods (the others are never hedged):
     * another attempt on another provider when none answered after the policy's delay, fixed
     * ({@link HedgingPolicy#afterMillis}) or following each method's recent latency on this proxy
     * ({@link HedgingPolicy#afterLatencyPercentile}); the first answer wins. Off by default. Applies to fail-fast and
     * fail-over methods (whose retries are then the hedges).
     */
    public ProxyBuilder<T> hedging(HedgingPolicy policy) {
        this.hedging = Requires.notNull(policy, "hedging");
        return this;
    }

    /**
     * Hedges the calls of the methods named {@code methodName}, overriding {@link #hedging}; the method must be
     * marked {@linkplain #idempotent idempotent} ({@link #build()} checks).
     */
    public ProxyBuilder<T> methodHedging(String methodName, HedgingPolicy policy) {
        methodHedging.put(Requires.notBlank(methodName, "methodName"), Requires.notNull(policy, "policy"));
        return this;
    }

    /** The serializer of requests (responses come back in the same); default protostuff. */
    public ProxyBuilder<T> serializer(SerializerType type) {
        this.serializer = Requires.notNull(type, "serializer");
        return this;
    }

    /** Timeout of every call of this proxy; default 3,000 ms. */
    public ProxyBuilder<T> timeoutMillis(long millis) {
        this.timeoutMillis = JupiterSettings.INVOKE_TIMEOUT.check(millis);
        return this;
    }

    /** Timeout of the methods named {@code methodName} (all overloads), overriding {@link #timeoutMillis}. */
    public ProxyBuilder<T> methodTimeoutMillis(String methodName, long millis) {
        methodTimeouts.put(Requires.notBlank(methodName, "methodName"), Requires.positive(millis, "millis"));
        return this;
    }

    /** Connections kept to each address; default 1. Calls are spread over them round-robin. */
    public ProxyBuilder<T> connections(int count) {
        this.connections = Requires.inRange(count, 1, 64, "connections");
        return this;
    }

    /** How calls return; default {@link InvokeType#SYNC}. */
    public ProxyBuilder<T> invokeType(InvokeType type) {
        this.invokeType = Requires.notNull(type, "invokeType");
        return this;
    }

    /** The service version to call; default {@code 1.0.0}. */
    public ProxyBuilder<T> version(String version) {
        this.version = Requires.notBlank(version, "version");
        return this;
    }

    /** Overrides the group of the interface's {@link ServiceProvider}. */
    public ProxyBuilder<T> group(String group) {
        this.group = Requires.notBlank(group, "group");
        return this;
    }

    /** Overrides the name of the interface's {@link ServiceProvider}. */
    public ProxyBuilder<T> name(String name) {
        this.name = Requires.notBlank(name, "name");
        return this;
    }

    /**
     * Adds an interceptor (or a {@link io.jupiter.rpc.filter.Filter}) around every call of this proxy; it runs after
     * the client's global ones of the same priority.
     */
    public ProxyBuilder<T> interceptor(Interceptor interceptor) {
        interceptors.add(Requires.notNull(interceptor, "interceptor"));
        return this;
    }

    /**
     * The proxy. Connections open in the background; the first calls wait for them within their timeout.
     *
     * @throws IllegalStateException if no address was given, the serializer is not on the class path, or a
     *         {@link #protocol} is given with a registry
     * @throws IllegalArgumentException if a synchronous method has the {@link ClusterStrategy#broadcast()} strategy
     *         (it needs {@link InvokeType#ASYNC} or a method returning a future), or a method hedged by
     *         {@link #methodHedging} is not marked idempotent
     */
    public T build() {
        checkBroadcastIsAsync();
        for (String method : methodHedging.keySet()) {
            Requires.argument(idempotentMethods.contains(method), "methodHedging(\"" + method + "\"): hedging runs a"
                    + " call more than once; mark the method idempotent(\"" + method + "\") first");
        }
        String registryUrl = registry != null ? registry : addresses.isEmpty() ? client.registry() : null;
        if (addresses.isEmpty() && registryUrl == null) {
            throw new IllegalStateException("no provider address for " + serviceInterface.getName()
                    + " (call address(\"host:port\"), address(\"unix:/path\") or registry(\"default://host:port\"))");
        }
        if (protocol != null && registryUrl != null) {
            throw new IllegalStateException("protocol(...) calls direct addresses only: give address(\"host:port\")"
                    + " instead of a registry for " + serviceInterface.getName());
        }
        ServiceKey fromInterface = ServiceKey.of(serviceInterface, version);
        ServiceKey key = new ServiceKey(group != null ? group : fromInterface.group(),
                name != null ? name : fromInterface.name(), version);
        Serializer chosen = client.serializers().get(serializer);
        client.serializers().allowList().trustTypesOf(serviceInterface); // its own types need no configuration
        ProxySettings settings = new ProxySettings(serviceInterface, key, client.appName(),
                registryUrl != null ? List.of(registryUrl) : addresses, invokeType, timeoutMillis, methodTimeouts,
                loadBalancer, cluster, methodClusters, idempotentMethods);
        List<Interceptor> all = new ArrayList<>(client.interceptors());
        all.addAll(interceptors);
        settings.extensions(all, client.propagateDeadline());
        settings.tailTolerance(outlierEjection, retryBudget, hedging, methodHedging);
        settings.clientThrottling(clientThrottling);
        settings.protocol(protocol);
        if (registryUrl != null) {
            return client.runtime().newProxy(settings, chosen, registryUrl);
        }
        List<SocketAddress> resolved = new ArrayList<>();
        for (String address : addresses) {
            resolved.add(parse(address));
        }
        return client.runtime().newProxy(settings, chosen, resolved, connections);
    }

    /**
     * Broadcast returns the results of all providers together, which only a future can carry (1.3.1 rejected it the
     * same way). Checked before the proxy takes any connection. A generic invoker's synchronous {@code $invoke} is
     * checked per call instead, so that its {@code $invokeAsync} may broadcast.
     */
    private void checkBroadcastIsAsync() {
        if (invokeType == InvokeType.ASYNC || serviceInterface == GenericInvoker.class) {
            return;
        }
        for (Method method : serviceInterface.getMethods()) {
            ClusterStrategy strategy = methodClusters.getOrDefault(method.getName(), cluster);
            Class<?> returnType = method.getReturnType();
            boolean returnsFuture = Future.class.isAssignableFrom(returnType)
                    || CompletionStage.class.isAssignableFrom(returnType);
            if (strategy.kind() == ClusterStrategy.Kind.BROADCAST && !returnsFuture) {
                throw new IllegalArgumentException("broadcast & sync unsupported: " + serviceInterface.getSimpleName()
                        + '.' + method.getName() + " returns " + returnType.getSimpleName()
                        + "; broadcast needs invokeType(InvokeType.ASYNC) or a method returning a future");
            }
        }
    }

    static SocketAddress parse(String address) {
        return TransportAddresses.parse(address);
    }
}
