package io.jupiter.rpc;

import io.jupiter.common.Requires;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.flow.FlowLimiter;
import io.jupiter.rpc.internal.provider.ServerRuntime;
import io.jupiter.rpc.internal.provider.ServiceEntry;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.ClassAllowList;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.TransportConfig;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The provider side: serves registered service implementations on one port.
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

    private final ServerRuntime runtime;

    private JupiterServer(Builder builder) {
        this.runtime = new ServerRuntime(builder.transportConfig, new InetSocketAddress(builder.host, builder.port),
                builder.providerThreads, builder.queueCapacity, builder.serializers,
                RpcMetrics.create(RpcMetrics.Side.PROVIDER, builder.metrics));
        runtime.extensions(builder.interceptors, builder.appFlowLimiter);
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
        ClassAllowList.global().trustTypesOf(serviceInterface); // its own types need no configuration
        runtime.register(new ServiceEntry(key, serviceInterface, implementation));
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
     * Binds the port and starts serving; returns once bound.
     *
     * @return the bound address (the real port when configured with port 0)
     */
    public InetSocketAddress start() {
        return runtime.start();
    }

    /** The bound address, or {@code null} before {@link #start()}. */
    public InetSocketAddress localAddress() {
        return runtime.localAddress();
    }

    /** The number of client connections open now. */
    public int connectionCount() {
        return runtime.connectionCount();
    }

    /** The keys of the registered services. */
    public List<ServiceKey> providedServices() {
        return runtime.services().stream().map(ServiceEntry::key).sorted(
                java.util.Comparator.comparing(ServiceKey::toString)).toList();
    }

    /** The provider-side metrics of this server. */
    public RpcMetrics metrics() {
        return runtime.metrics();
    }

    /** Closes every connection, stops accepting and stops the provider threads. */
    @Override
    public void close() {
        runtime.close();
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
        private TransportConfig transportConfig = TransportConfig.builder().threadNamePrefix("jupiter-acceptor")
                .writerIdleMillis(0).build();
        private int providerThreads = Math.max(4, Runtime.getRuntime().availableProcessors() * 2);
        private int queueCapacity = 8192;
        private Set<SerializerType> serializers = EnumSet.of(SerializerType.PROTOSTUFF, SerializerType.HESSIAN,
                SerializerType.KRYO);
        private final List<Interceptor> interceptors = new ArrayList<>();
        private FlowLimiter appFlowLimiter;
        private boolean metrics = RpcMetrics.enabledByDefault();

        private Builder() {
        }

        /** The address to bind; default {@code 0.0.0.0}. */
        public Builder host(String host) {
            this.host = Requires.notBlank(host, "host");
            return this;
        }

        /** The port; default 18090 (1.3.1's); 0 picks a free one. */
        public Builder port(int port) {
            this.port = Requires.inRange(port, 0, 65535, "port");
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
            this.providerThreads = Requires.notNegative(threads, "providerThreads");
            return this;
        }

        /** Requests that may queue for a provider thread before new ones get {@code SERVER_BUSY}; default 8192. */
        public Builder queueCapacity(int capacity) {
            this.queueCapacity = Requires.positive(capacity, "queueCapacity");
            return this;
        }

        /**
         * The serializers requests may use; default protostuff, hessian and kryo. Java serialization is off unless
         * listed here: it can run code named by the peer.
         */
        public Builder serializers(SerializerType... types) {
            Requires.argument(types.length > 0, "serializers: none (expected: at least one)");
            this.serializers = EnumSet.of(types[0], types);
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
         * The application-wide flow limiter, asked on the IO thread for every request before its body is read; a
         * refused request is answered {@code APP_FLOW_CONTROL} at once. Released when the request's task ended (a
         * method returning a {@code CompletionStage} counts until it returned the stage). Default: none.
         */
        public Builder appFlowLimiter(FlowLimiter limiter) {
            this.appFlowLimiter = Requires.notNull(limiter, "appFlowLimiter");
            return this;
        }

        /** Whether to record metrics ({@link JupiterServer#metrics()}); default on ({@code -Djupiter.metrics.enabled}). */
        public Builder metrics(boolean enabled) {
            this.metrics = enabled;
            return this;
        }

        public JupiterServer build() {
            return new JupiterServer(this);
        }
    }
}
