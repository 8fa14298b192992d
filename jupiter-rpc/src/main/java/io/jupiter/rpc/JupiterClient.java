package io.jupiter.rpc;

import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.generic.GenericInvoker;
import io.jupiter.rpc.internal.consumer.ClientRuntime;
import io.jupiter.rpc.internal.stream.StreamWindows;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.ReadLimits;
import io.jupiter.serialization.SerializerSet;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The consumer side: makes client proxies of service interfaces and owns their connections and threads.
 *
 * <pre>{@code
 * try (JupiterClient client = JupiterClient.builder().appName("shop").build()) {
 *     HelloService hello = client.proxy(HelloService.class).address("127.0.0.1:18099").build();
 *     String reply = hello.hello("jupiter");
 * }
 * }</pre>
 *
 * <p>One client per process is the norm: proxies of one client to the same address share its connections.
 * {@link #close()} closes every connection, fails the calls still waiting and stops every thread the client started.
 */
public final class JupiterClient implements AutoCloseable {

    private final String appName;
    private final ClientRuntime runtime;
    private final List<Interceptor> interceptors;
    private final boolean propagateDeadline;
    private final String registry;
    /** The serializers this client reads answers with: its own allow-list and read limits. */
    private final SerializerSet serializers;

    private JupiterClient(Builder builder) {
        this.appName = builder.appName;
        this.interceptors = List.copyOf(builder.interceptors);
        this.propagateDeadline = builder.propagateDeadline;
        this.runtime = new ClientRuntime(builder.transportConfig, builder.consumerThreads, builder.callbackExecutor,
                builder.adaptiveCallbacks, RpcMetrics.create(RpcMetrics.Side.CONSUMER, builder.metrics),
                builder.maxInFlight, builder.poolStallMicros, builder.callerToken);
        this.registry = builder.registry;
        this.serializers = SerializerSet.of(builder.allowList, builder.readLimits);
        if (builder.warmUpMillis >= 0) {
            runtime.warmUpMillis(builder.warmUpMillis);
        }
        runtime.latencyDecayMillis(builder.latencyDecayMillis);
        runtime.cancelCalls(builder.cancelCalls);
        runtime.streamWindows(new StreamWindows(builder.streamWindowBytes, builder.streamConnectionWindowBytes));
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Starts building a proxy of {@code serviceInterface}. */
    public <T> ProxyBuilder<T> proxy(Class<T> serviceInterface) {
        return new ProxyBuilder<>(this, serviceInterface);
    }

    /**
     * Starts building a {@link GenericInvoker} of the service {@code key}: calls by method name, without the
     * service interface. The builder's settings (address, serializer, timeouts, interceptors) apply as to any proxy.
     */
    public ProxyBuilder<GenericInvoker> generic(ServiceKey key) {
        Requires.notNull(key, "key");
        return proxy(GenericInvoker.class).group(key.group()).name(key.name()).version(key.version());
    }

    /** The application name sent with every request. */
    public String appName() {
        return appName;
    }

    List<Interceptor> interceptors() {
        return interceptors;
    }

    boolean propagateDeadline() {
        return propagateDeadline;
    }

    /** The consumer-side metrics of every proxy of this client. */
    public RpcMetrics metrics() {
        return runtime.metrics();
    }

    /** The services consumed so far (one entry per proxy built), with their addresses and open connections. */
    public List<ConsumedService> consumedServices() {
        return runtime.consumed();
    }

    /** The registry proxies use when they name no address and no registry, or {@code null}. */
    public String registry() {
        return registry;
    }

    ClientRuntime runtime() {
        return runtime;
    }

    SerializerSet serializers() {
        return serializers;
    }

    @Override
    public void close() {
        runtime.close();
    }

    /** Builds a {@link JupiterClient}. */
    public static final class Builder {
        private String appName = "UNKNOWN";
        private TransportConfig transportConfig = TransportConfig.builder().threadNamePrefix("jupiter-connector")
                .readerIdleMillis(0).build();
        private int consumerThreads = JupiterSettings.CONSUMER_THREADS.get();
        private Executor callbackExecutor;
        private boolean adaptiveCallbacks = JupiterSettings.ADAPTIVE_CALLBACKS.get();
        private final List<Interceptor> interceptors = new ArrayList<>();
        private boolean propagateDeadline = JupiterSettings.PROPAGATE_DEADLINE.get();
        private boolean metrics = RpcMetrics.enabledByDefault();
        private String registry;
        private long warmUpMillis = -1;
        private long latencyDecayMillis = JupiterSettings.LATENCY_DECAY_MILLIS.get();
        private boolean cancelCalls = JupiterSettings.CANCEL_CALLS.get();
        private int maxInFlight = JupiterSettings.MAX_IN_FLIGHT.get();
        private int streamWindowBytes = JupiterSettings.STREAM_WINDOW_BYTES.get();
        private long streamConnectionWindowBytes = JupiterSettings.STREAM_CONNECTION_WINDOW_BYTES.get();
        private long poolStallMicros = JupiterSettings.POOL_STALL_MICROS.get();
        private ClassAllowList allowList = ClassAllowList.global();
        private ReadLimits readLimits = ReadLimits.defaults();
        private Supplier<String> callerToken;

        private Builder() {
        }

        /**
         * The class allow-list this client's serializers check every class name of an answer against. Default
         * {@link ClassAllowList#global()}; the types of each proxied service interface are trusted in the list the
         * client uses.
         */
        public Builder allowList(ClassAllowList allowList) {
            this.allowList = Requires.notNull(allowList, "allowList");
            return this;
        }

        /**
         * How deep an answer's values may nest and how many references one body may hold, for this client alone.
         * Default {@link ReadLimits#defaults()} (the {@code maxDepth} and {@code maxReferences} settings); an
         * answer beyond them fails its call with a {@code DESERIALIZATION_FAIL} saying which limit it broke.
         */
        public Builder readLimits(ReadLimits readLimits) {
            this.readLimits = Requires.notNull(readLimits, "readLimits");
            return this;
        }

        /**
         * How long a completion may wait, every awake consumer thread busy, before it wakes another, as a server's
         * provider threads ({@link JupiterServer.Builder#poolStallMicros}; default 1 ms).
         */
        public Builder poolStallMicros(long micros) {
            this.poolStallMicros = JupiterSettings.POOL_STALL_MICROS.check(micros);
            return this;
        }

        /** The application name sent in every request; default {@code "UNKNOWN"} (as in 1.3.1). */
        public Builder appName(String appName) {
            this.appName = Requires.notBlank(appName, "appName");
            return this;
        }

        /** Transport settings (heartbeat interval, IO threads, body cap, ...); see {@link TransportConfig}. */
        public Builder transportConfig(TransportConfig config) {
            this.transportConfig = Requires.notNull(config, "transportConfig");
            return this;
        }

        /**
         * The byte window of each stream this client reads from a provider, as a server's for its consumers'
         * streams ({@link JupiterServer.Builder#streamWindowBytes}; default 1 MiB,
         * {@code -Djupiter.rpc.stream.window.bytes}).
         */
        public Builder streamWindowBytes(int bytes) {
            this.streamWindowBytes = JupiterSettings.STREAM_WINDOW_BYTES.check(bytes);
            return this;
        }

        /**
         * What the streams this client reads on one connection may hold together, as a server's
         * ({@link JupiterServer.Builder#streamConnectionWindowBytes}; default 8 MiB,
         * {@code -Djupiter.rpc.stream.connection.window.bytes}).
         */
        public Builder streamConnectionWindowBytes(long bytes) {
            this.streamConnectionWindowBytes = JupiterSettings.STREAM_CONNECTION_WINDOW_BYTES.check(bytes);
            return this;
        }

        /**
         * Threads that read asynchronous responses and run future callbacks; default: number of processors. 0 does
         * both on the IO threads, and reads the messages of server streams and calls their subscribers there too:
         * fewer thread hand-offs (none a stream message), but a slow callback or subscriber then stalls every
         * connection of that IO thread, and one that blocks on a call of this client may never wake.
         */
        public Builder consumerThreads(int threads) {
            this.consumerThreads = JupiterSettings.CONSUMER_THREADS.check(threads);
            return this;
        }

        /**
         * Whether the completions of a proxy method's async calls (reading the response, running the callbacks
         * registered on its future) move from the consumer threads to the IO thread that read the response once
         * they prove fast, which saves a thread hand-off per call; default off
         * ({@code -Djupiter.rpc.consumer.adaptive.callbacks}): one slow callback on an IO thread holds up every
         * response that thread reads. The rules are the provider's adaptive dispatch
         * ({@link JupiterServer.Builder#adaptiveDispatch}): 1,000 fast completions on the consumer threads (at most
         * 1 % of 100 µs or more, none of 2 ms, no synchronous call waited for) move them; one of 2 ms or more on an
         * IO thread sends them back, with a WARN line. Responses over 16 KiB are always read on the consumer threads.
         * Off: callbacks always run on the consumer threads. Unused with {@link #consumerThreads}(0) or a
         * {@link #callbackExecutor}.
         */
        public Builder adaptiveCallbacks(boolean adaptive) {
            this.adaptiveCallbacks = adaptive;
            return this;
        }

        /**
         * Reads asynchronous responses and runs future callbacks on {@code executor} (virtual threads, an
         * application's pool, ...) instead of the client's consumer threads ({@link #consumerThreads} is then
         * unused). The executor is the application's: the client never shuts it down. A completion it refuses runs
         * on the IO thread that read the response.
         */
        public Builder callbackExecutor(Executor executor) {
            this.callbackExecutor = Requires.notNull(executor, "executor");
            return this;
        }

        /**
         * Adds an interceptor (or a {@link io.jupiter.rpc.filter.Filter}) around every call of every proxy of this
         * client.
         */
        public Builder interceptor(Interceptor interceptor) {
            interceptors.add(Requires.notNull(interceptor, "interceptor"));
            return this;
        }

        /**
         * The registry to find providers in, e.g. {@code default://127.0.0.1:20001} or
         * {@code zookeeper://127.0.0.1:2181}; used by every proxy that names no address of its own.
         */
        public Builder registry(String url) {
            this.registry = Requires.notBlank(url, "registry");
            return this;
        }

        /**
         * Whether every call sends its timeout as a deadline attachment ({@code jupiter.timeout}), so that the
         * provider drops the request instead of running it once the caller gave up; default on
         * ({@code -Djupiter.rpc.consumer.deadline.propagate}). A 1.3.1 provider ignores the attachment. Calls made
         * while serving a request that came with a deadline always carry the remaining part on.
         */
        public Builder propagateDeadline(boolean propagate) {
            this.propagateDeadline = propagate;
            return this;
        }

        /**
         * Whether to record metrics ({@link JupiterClient#metrics()}); default on ({@code -Djupiter.metrics.enabled}).
         */
        public Builder metrics(boolean enabled) {
            this.metrics = enabled;
            return this;
        }

        /**
         * How long a provider that just appeared gets a reduced share of the calls (from 1 % growing linearly to its
         * full weight); default 60,000 ms ({@code -Djupiter.rpc.load.balancer.warm.up.millis}); 0 disables.
         */
        public Builder warmUpMillis(long millis) {
            this.warmUpMillis = JupiterSettings.WARM_UP_MILLIS.check(millis);
            return this;
        }

        /**
         * How fast the least-latency balancer forgets the latency of a provider that gets no calls of this client
         * (the time constant of its average's decay toward 0), so that a provider that was slow is tried again;
         * default 1,000 ms ({@code -Djupiter.rpc.load.balancer.latency.decay.millis}). Each client has its own.
         */
        public Builder latencyDecayMillis(long millis) {
            this.latencyDecayMillis = JupiterSettings.LATENCY_DECAY_MILLIS.check(millis);
            return this;
        }

        /**
         * Whether a call whose caller stopped waiting (a timeout, a cancelled future, a hedge's loser) is cancelled at
         * its provider, so that the provider drops it if it has not started; default on
         * ({@code -Djupiter.rpc.consumer.cancel}). Only providers of ours that said they take cancels are told; off,
         * this client's bytes are 1.3.1's. See docs/protocol.md, "Cancellation of calls".
         */
        public Builder cancelCalls(boolean cancel) {
            this.cancelCalls = cancel;
            return this;
        }

        /**
         * Calls of this client that may wait for a response at once (async back-pressure); default 4,096
         * ({@code -Djupiter.rpc.consumer.max.in.flight}), half a provider's default queue, so one client alone
         * cannot overflow a provider into SERVER_BUSY. A call that finds the window full waits, within its timeout,
         * for a slot; if none frees it fails with {@code CLIENT_TIMEOUT} without having been sent.
         */
        public Builder maxInFlight(int calls) {
            this.maxInFlight = JupiterSettings.MAX_IN_FLIGHT.check(calls);
            return this;
        }

        /**
         * A token sent once per connection, as its first frame, for providers that name their callers by it
         * ({@link io.jupiter.rpc.JupiterServer.Builder#tokenAuthenticator}); default: none, nothing is sent (as
         * 1.3.1). Only for such providers: one without token authentication, as a 1.3.1 one, closes a connection
         * that sends a token. The token is a secret: use TLS ({@link TransportConfig#tls()}) so that it is not sent in
         * clear text. It is never logged.
         *
         * @throws IllegalArgumentException if the token is blank, or longer than 4,096 UTF-8 bytes
         */
        public Builder callerToken(String token) {
            Requires.argument(token != null && !token.isBlank(), "callerToken: blank (expected: a token)");
            int bytes = token.getBytes(StandardCharsets.UTF_8).length;
            Requires.argument(bytes <= ProtocolHeader.MAX_CALLER_TOKEN_SIZE, "callerToken: " + bytes
                    + " bytes (expected: at most " + ProtocolHeader.MAX_CALLER_TOKEN_SIZE + ")");
            return callerToken(() -> token);
        }

        /**
         * As {@link #callerToken(String)}, the token asked for each time a connection opens (reconnections too), so
         * that it may rotate. Must be fast and must not block: it runs on the IO thread. When it returns no usable
         * token (null, blank, too long) or throws, the connection sends none, and a provider that asks for one
         * refuses its first request as "caller token missing".
         */
        public Builder callerToken(Supplier<String> tokens) {
            this.callerToken = Requires.notNull(tokens, "callerToken");
            return this;
        }

        public JupiterClient build() {
            return new JupiterClient(this);
        }
    }
}
