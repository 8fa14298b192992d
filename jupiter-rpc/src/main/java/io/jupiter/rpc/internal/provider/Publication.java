package io.jupiter.rpc.internal.provider;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.rpc.ServiceKey;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A server's services in its registry: published once the server is bound (and each service registered later as it
 * comes), withdrawn for a graceful shutdown, after which the server waits for consumers to stop sending.
 */
public final class Publication {

    private final String registryUrl;
    /** {@code null}: the registry fills in the address the provider connects from (a wildcard bind). */
    private final String publishedHost;
    private final int weight;
    private final int connCount;
    private final List<RegisterMeta> published = new CopyOnWriteArrayList<>();
    private volatile RegistryService registry;
    private volatile int port;

    /**
     * @param registryUrl   the registry to publish to; {@code null}: none, and every method does nothing
     * @param publishedHost the host consumers connect to; {@code null}: the registry's view of the provider
     */
    public Publication(String registryUrl, String publishedHost, int weight, int connCount) {
        this.registryUrl = registryUrl;
        this.publishedHost = publishedHost;
        this.weight = weight;
        this.connCount = connCount;
    }

    /** Whether the services are published (the server started with a registry). */
    public boolean isActive() {
        return registry != null;
    }

    /** Connects to the registry, if any, and publishes {@code services} under the bound {@code address}. */
    public void start(InetSocketAddress address, Iterable<ServiceKey> services) {
        if (registryUrl == null) {
            return;
        }
        port = address.getPort();
        registry = Registries.connect(registryUrl);
        for (ServiceKey key : services) {
            publish(key);
        }
    }

    /** Publishes one more service, if the services are published. */
    public synchronized void publish(ServiceKey key) {
        RegistryService r = registry;
        if (r == null) {
            return;
        }
        RegisterMeta meta = new RegisterMeta(new ProviderAddress(publishedHost, port),
                new ServiceMeta(key.group(), key.name(), key.version()), weight, connCount);
        published.add(meta);
        r.register(meta);
    }

    /** Waits until the registry has accepted every service published so far (true at once without a registry). */
    public boolean awaitPublished(long timeoutMillis) throws InterruptedException {
        RegistryService r = registry;
        return r == null || r.awaitRegistered(timeoutMillis);
    }

    /** Withdraws every service from the registry. */
    public void unpublishAll() {
        RegistryService r = registry;
        if (r != null) {
            for (RegisterMeta meta : published) {
                r.unregister(meta);
            }
            published.clear();
        }
    }

    /**
     * Waits until consumers stop sending: {@code received} (the requests counted so far) did not move for
     * {@code quietMillis} (the server's {@code shutdownQuietMillis}), or {@code deadlineNanos} came.
     */
    public static void awaitQuiet(LongSupplier received, long quietMillis, long deadlineNanos) {
        long quietNanos = TimeUnit.MILLISECONDS.toNanos(quietMillis);
        long seen = received.getAsLong();
        long quietSince = System.nanoTime();
        while (System.nanoTime() - deadlineNanos < 0) {
            try {
                Thread.sleep(10); // sampling the request counter; the wait is bounded by the deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long now = received.getAsLong();
            if (now != seen) {
                seen = now;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= quietNanos) {
                return;
            }
        }
    }

    /** Leaves the registry. */
    public void close() {
        RegistryService r = registry;
        if (r != null) {
            r.close();
        }
    }
}
