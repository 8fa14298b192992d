package io.jupiter.rpc.internal.consumer;

import io.jupiter.common.NamedThreadFactory;
import io.jupiter.rpc.ConsumedService;
import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.Status;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import io.netty.util.HashedWheelTimer;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Everything a client owns: the connector and its connections, the in-flight calls, the timeout wheel and the
 * threads that complete asynchronous calls.
 */
public final class ClientRuntime implements AutoCloseable {

    private final InFlightCalls calls = new InFlightCalls();
    private final Connector connector;
    private final HashedWheelTimer timer;
    private final ExecutorService pool;
    private final Executor executor;
    private final Map<InetSocketAddress, ConnectionGroup> groups = new ConcurrentHashMap<>();
    private final RpcMetrics metrics;
    private final List<Consumed> consumed = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /**
     * @param consumerThreads threads that read async responses and run callbacks; 0 does it on the IO threads
     */
    public ClientRuntime(TransportConfig transportConfig, int consumerThreads, RpcMetrics metrics) {
        this.metrics = metrics;
        this.connector = TransportFactory.load().newConnector(transportConfig,
                new ConsumerFrameHandler(calls, metrics));
        this.timer = new HashedWheelTimer(new NamedThreadFactory("jupiter-timeout", true), 10, TimeUnit.MILLISECONDS,
                512);
        if (consumerThreads > 0) {
            this.pool = new ThreadPoolExecutor(consumerThreads, consumerThreads, 60, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), new NamedThreadFactory("jupiter-consumer", true));
            this.executor = pool;
        } else {
            this.pool = null;
            this.executor = Runnable::run;
        }
    }

    /** A proxy of {@code settings.serviceInterface} calling the given addresses. */
    public <T> T newProxy(ProxySettings settings, Serializer serializer, List<InetSocketAddress> addresses,
                          int connectionsPerAddress) {
        if (closed) {
            throw new IllegalStateException("client is closed");
        }
        List<ConnectionGroup> targets = new ArrayList<>();
        for (InetSocketAddress address : addresses) {
            targets.add(groups.computeIfAbsent(address, a -> connector.connect(a, connectionsPerAddress)));
        }
        ConnectionGroup[] targetGroups = targets.toArray(new ConnectionGroup[0]);
        ServiceInvoker invoker = new ServiceInvoker(settings, serializer, targetGroups, calls, timer, executor,
                metrics);
        consumed.add(new Consumed(settings, targetGroups));
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
            for (ConnectionGroup group : c.groups) {
                targets.add(new ConsumedService.Target(group.address(), group.activeConnections().size()));
            }
            views.add(new ConsumedService(c.settings.key, c.settings.serviceInterface.getName(), targets));
        }
        return views;
    }

    private record Consumed(ProxySettings settings, ConnectionGroup[] groups) {
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
        for (ConnectionGroup group : groups.values()) {
            group.close();
        }
        connector.close();
        for (PendingCall call : calls.removeAll(c -> true)) {
            call.failed(new ConnectionException(Status.CLIENT_ERROR, "client closed before the response to "
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
