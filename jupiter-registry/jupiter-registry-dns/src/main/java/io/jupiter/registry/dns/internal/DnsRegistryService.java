package io.jupiter.registry.dns.internal;

import io.jupiter.common.NamedThreadFactory;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.registry.NotifyListener;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.dns.DnsTarget;
import io.jupiter.registry.internal.ProviderRecords;
import io.jupiter.registry.internal.ProviderRecords.HostRule;
import io.jupiter.registry.internal.ReadOnlyRegistryService;
import io.jupiter.registry.internal.RegistryWorker;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.NoopAuthoritativeDnsServerCache;
import io.netty.resolver.dns.NoopDnsCache;
import io.netty.resolver.dns.NoopDnsCnameCache;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DNS registry. The name is resolved (A and AAAA, no cache: every answer is fresh) on Netty's DNS resolver once
 * a consumer subscribes, then every {@code refreshMillis}, and again at once when a consumer reports a provider it
 * cannot reach ({@link #reportUnreachable}), but not sooner than {@code jupiter.registry.dns.reresolve.floor.millis}
 * (1 s) after the last resolution; one worker thread owns the state. Every address passes {@link ProviderRecords}
 * (an IP literal, not the wildcard, multicast or broadcast address); a bad one is skipped with one WARN line and
 * counted. An answer that fails or has no good address keeps the last list (empty-push protection).
 */
public final class DnsRegistryService extends ReadOnlyRegistryService {

    private static final Logger log = LoggerFactory.getLogger(DnsRegistryService.class);
    /** How long one query waits for its answer. */
    static final long QUERY_TIMEOUT_MILLIS = 2000;

    private final DnsTarget target;
    private final EventLoopGroup loop;
    private final DnsNameResolver resolver;
    private final long floorNanos = TimeUnit.MILLISECONDS.toNanos(JupiterSettings.DNS_RERESOLVE_FLOOR_MILLIS.get());

    // Worker-confined.
    private List<ProviderAddress> addresses;
    private boolean started;
    private long lastResolveNanos;
    private boolean reresolveScheduled;
    private volatile long resolutions;

    public DnsRegistryService(DnsTarget target) {
        super(DnsTarget.SCHEME, log, "the dns registry only reads DNS records",
                new RegistryWorker("jupiter-registry-dns"));
        this.target = target;
        this.loop = new MultiThreadIoEventLoopGroup(1, new NamedThreadFactory("jupiter-registry-dns-io", true),
                NioIoHandler.newFactory());
        this.resolver = new DnsNameResolverBuilder(loop.next()).datagramChannelType(NioDatagramChannel.class)
                .resolveCache(NoopDnsCache.INSTANCE).cnameCache(NoopDnsCnameCache.INSTANCE)
                .authoritativeDnsServerCache(NoopAuthoritativeDnsServerCache.INSTANCE)
                .queryTimeoutMillis(QUERY_TIMEOUT_MILLIS)
                .nameServerProvider(target.nameServer() == null ? DnsServerAddressStreamProviders.platformDefault()
                        : new SingletonDnsServerAddressStreamProvider(target.nameServer()))
                .build();
    }

    @Override
    public void subscribe(ServiceMeta service, NotifyListener listener) {
        worker.run(() -> {
            subscriptions.add(service, listener);
            if (addresses != null) {
                listener.providersChanged(service, providers(service));
            }
            if (!started) {
                started = true;
                worker.executor().scheduleWithFixedDelay(this::resolve, 0, target.refreshMillis(),
                        TimeUnit.MILLISECONDS);
            }
        });
    }

    @Override
    public List<RegisterMeta> lookup(ServiceMeta service) {
        return worker.query(() -> addresses == null ? List.<RegisterMeta>of() : providers(service), List.of());
    }

    /**
     * Resolves the name again soon when {@code address} is one of its providers: at once, or at the floor after the
     * last resolution; reports while one is pending add nothing.
     */
    @Override
    public void reportUnreachable(ProviderAddress address) {
        worker.run(() -> {
            if (closed() || !started || reresolveScheduled || addresses == null || !addresses.contains(address)) {
                return;
            }
            reresolveScheduled = true;
            long waitNanos = Math.max(0, floorNanos - (System.nanoTime() - lastResolveNanos));
            log.debug("{} unreachable: resolving {} again in {} ms", address, target.name(),
                    TimeUnit.NANOSECONDS.toMillis(waitNanos));
            worker.executor().schedule(() -> {
                reresolveScheduled = false;
                resolve();
            }, waitNanos, TimeUnit.NANOSECONDS);
        });
    }

    /** Answers received so far (tests). */
    public long resolutionCount() {
        return resolutions;
    }

    // ---- worker ----

    private void resolve() {
        if (closed()) {
            return;
        }
        lastResolveNanos = System.nanoTime();
        worker.step("resolve");
        resolver.resolveAll(target.name()).addListener(future -> worker.run(() -> {
            if (future.isSuccess()) {
                @SuppressWarnings("unchecked")
                List<InetAddress> found = (List<InetAddress>) future.getNow();
                resolved(found);
            } else {
                log.warn("cannot resolve {}, keeping the last {} address(es); again in {} ms: {}", target.name(),
                        addresses == null ? 0 : addresses.size(), target.refreshMillis(), future.cause().toString());
            }
        }));
    }

    private void resolved(List<InetAddress> found) {
        resolutions++;
        worker.step("answer");
        Set<ProviderAddress> unique = new LinkedHashSet<>();
        ServiceMeta any = new ServiceMeta("dns", target.name(), "any");
        for (InetAddress address : found) {
            RegisterMeta meta = records.accept("the answer for " + target.name(), any, any, address.getHostAddress(),
                    HostRule.IP, target.port(), RegisterMeta.DEFAULT_WEIGHT, 1);
            if (meta != null) {
                unique.add(meta.address());
            }
        }
        List<ProviderAddress> next = new ArrayList<>(unique);
        next.sort((a, b) -> a.host().compareTo(b.host()));
        if (next.equals(addresses)) {
            return;
        }
        if (next.isEmpty() && addresses != null && !addresses.isEmpty()) {
            log.warn("{} resolves to no address; keeping the last {} (empty-push protection)", target.name(),
                    addresses.size());
            return;
        }
        log.info("{} resolves to {}", target.name(), next);
        addresses = List.copyOf(next);
        for (ServiceMeta service : subscriptions.services()) {
            subscriptions.providersChanged(service, providers(service));
        }
    }

    private List<RegisterMeta> providers(ServiceMeta service) {
        int connections = JupiterSettings.SUGGESTED_CONNECTION_COUNT.get();
        List<RegisterMeta> providers = new ArrayList<>(addresses.size());
        for (ProviderAddress address : addresses) {
            providers.add(new RegisterMeta(address, service, RegisterMeta.DEFAULT_WEIGHT, connections));
        }
        return List.copyOf(providers);
    }

    @Override
    protected void closing() {
        worker.close(() -> { });
        resolver.close();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
