package io.jupiter.registry.kubernetes;

import static io.jupiter.registry.kubernetes.MockApiServer.State.READY;
import static io.jupiter.registry.kubernetes.MockApiServer.State.TERMINATING_SERVING;
import static io.jupiter.registry.kubernetes.MockApiServer.endpoint;
import static io.jupiter.registry.kubernetes.MockApiServer.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.rpc.ConsumedService;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.Await;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real consumer ({@link JupiterClient}, registry {@code kubernetes://}) calling real providers on 127.0.0.1 under
 * load while the mock API server's EndpointSlices go through a rolling update of three providers, with the API
 * server's watch broken, expired (410) and the API server down and back on the way.
 */
class KubernetesRollingUpdateTest {

    private static final Logger log = LoggerFactory.getLogger(KubernetesRollingUpdateTest.class);
    private static final ServiceMeta GREETER = new ServiceMeta("shop", "greeter", "1.0.0");
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final int LOAD_THREADS = 4;

    private MockApiServer api;
    private final List<Provider> providers = new ArrayList<>();
    private JupiterClient client;

    /**
     * A silent watch is replaced after 3 s here (2 min by default): a proxy cut right after a watch started can go
     * unnoticed by the client (docs/kubernetes.md), and the test must not wait minutes for it.
     */
    private static final String WATCH_IDLE = JupiterSettings.K8S_WATCH_IDLE_MILLIS.property();

    @BeforeEach
    void start() throws Exception {
        System.setProperty(WATCH_IDLE, "3000");
        api = new MockApiServer();
    }

    @AfterEach
    void stop() {
        System.clearProperty(WATCH_IDLE);
        api.proxy().stop();
        if (client != null) {
            client.close();
        }
        for (Provider provider : providers) {
            provider.server.close();
        }
        api.close();
    }

    @Test
    void aRollingUpdateOfThreeProvidersUnderLoadFailsNoCall() throws Exception {
        for (int i = 0; i < 3; i++) {
            startProvider("old-" + i);
        }
        client = JupiterClient.builder().appName("rolling").registry(api.registryUrl()).warmUpMillis(0).build();
        Greeter greeter = client.proxy(Greeter.class).timeoutMillis(5000).build();

        AtomicBoolean done = new AtomicBoolean();
        AtomicLong succeeded = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        ExecutorService load = Executors.newFixedThreadPool(LOAD_THREADS);
        long loadDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        for (int t = 0; t < LOAD_THREADS; t++) {
            load.execute(() -> {
                // Bounded: by the test's end, 90 s and 2,000,000 calls per thread.
                for (int n = 0; n < 2_000_000 && !done.get() && System.nanoTime() - loadDeadline < 0; n++) {
                    try {
                        assertThat(greeter.greet("k8s")).endsWith(":k8s");
                        succeeded.incrementAndGet();
                    } catch (Throwable e) {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet(null, e);
                    }
                }
            });
        }
        try {
            for (Provider provider : List.copyOf(providers)) {
                Await.until(provider.name + " gets calls", WAIT, () -> provider.impl.calls.get() > 0);
            }
            for (int i = 0; i < 3; i++) {
                Provider old = providers.get(i);
                // 1. The pod is deleted: its endpoint turns not ready and terminating, still serving.
                long changed = System.nanoTime();
                api.apply(slice(old.slice, GREETER, old.port, List.of(endpoint("127.0.0.1", TERMINATING_SERVING))));
                // The client drops it from its targets (what the preStop hook waits for), and from then on sends it
                // nothing new: at most the calls each load thread had already aimed at it.
                Await.until(client + " drops " + old.name, WAIT, () -> !targetPorts().contains(old.port));
                Duration dropped = Duration.ofNanos(System.nanoTime() - changed);
                int callsAtDrop = old.impl.calls.get();
                Await.until(old.name + " gets no more calls", WAIT, () -> {
                    int before = old.impl.calls.get();
                    return Await.holdsFor(Duration.ofMillis(300), () -> old.impl.calls.get() == before);
                });
                log.info("{}: dropped {} ms after its slice said terminating, last call {} ms after, {} calls after "
                        + "the drop", old.name, dropped.toMillis(),
                        TimeUnit.NANOSECONDS.toMillis(old.impl.lastCallNanos.get() - changed),
                        old.impl.calls.get() - callsAtDrop);
                assertThat(old.impl.calls.get() - callsAtDrop).as(old.name + ": calls after the client dropped it")
                        .isLessThanOrEqualTo(LOAD_THREADS);
                // The target is 1 s (KubernetesRegistryTest asserts it on a quiet path). Here four load threads, six
                // providers and the mock server share two cores with other builds: the old 3 s bound on the last call
                // saw 4.7 s once at load 13. What this test needs is state, checked above: the client drops the
                // endpoint before its provider drains, and sends it nothing new after. The time bound keeps twice
                // that worst case as margin and still fails a client that reacts ten times slower than the watch's
                // event (one that waits for the slice's deletion never drops it here and fails the wait above).
                assertThat(dropped).as(old.name + ": dropped after the slice said terminating")
                        .isLessThan(Duration.ofSeconds(10));
                // 2. SIGTERM: the provider drains.
                assertThat(old.server.shutdownGracefully(10_000)).isTrue();
                // A fault of the API server each time (now that the mock server has sent its events: it stalls when
                // a connection breaks while it still has some to send).
                switch (i) {
                    case 0 -> api.proxy().cut(); // the watch breaks
                    case 1 -> {
                        api.goneOnNextWatches(1); // the next watch expires
                        api.proxy().cut();
                    }
                    default -> api.proxy().stop(); // the API server is down while the pods change
                }
                // 3. The pod is gone; 4. its replacement becomes ready.
                api.delete(old.slice);
                Provider fresh = startProvider("new-" + i);
                if (i == 2) {
                    assertThat(Await.holdsFor(Duration.ofMillis(500), () -> fresh.impl.calls.get() == 0))
                            .as("no call before the API server is back").isTrue();
                    api.proxy().start();
                }
                Await.until(fresh.name + " gets calls", WAIT, () -> fresh.impl.calls.get() > 0);
            }
            assertThat(api.goneServed()).isEqualTo(1);
        } finally {
            done.set(true);
            load.shutdown();
            assertThat(load.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        log.info("rolling update: {} calls succeeded, {} failed", succeeded.get(), failed.get());
        assertThat(firstFailure.get()).as("first failed call").isNull();
        assertThat(failed.get()).isZero();
        assertThat(succeeded.get()).isPositive();
        for (Provider provider : providers.subList(3, 6)) {
            assertThat(provider.impl.calls.get()).as(provider.name).isPositive();
        }
    }

    /** The ports the client's proxy calls now. */
    private List<Integer> targetPorts() {
        List<Integer> ports = new ArrayList<>();
        for (ConsumedService service : client.consumedServices()) {
            for (ConsumedService.Target target : service.targets()) {
                ports.add(((InetSocketAddress) target.address()).getPort());
            }
        }
        return ports;
    }

    private Provider startProvider(String name) throws InterruptedException {
        GreeterImpl impl = new GreeterImpl(name);
        // In a pod: the registry URL is the consumers'; publishing through it does nothing.
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).registry(api.registryUrl())
                .serializers(SerializerType.PROTOSTUFF).build();
        server.register(impl, Greeter.class);
        int port = server.start().getPort();
        assertThat(server.awaitPublished(1000)).isTrue();
        Provider provider = new Provider(name, server, impl, "greeter-" + name, port);
        providers.add(provider);
        api.apply(slice(provider.slice, GREETER, port, List.of(endpoint("127.0.0.1", READY))));
        return provider;
    }

    private static final class Provider {
        final String name;
        final JupiterServer server;
        final GreeterImpl impl;
        final String slice;
        final int port;

        Provider(String name, JupiterServer server, GreeterImpl impl, String slice, int port) {
            this.name = name;
            this.server = server;
            this.impl = impl;
            this.slice = slice;
            this.port = port;
        }
    }

    static final class GreeterImpl implements Greeter {
        final String name;
        final AtomicInteger calls = new AtomicInteger();
        final AtomicLong lastCallNanos = new AtomicLong();

        GreeterImpl(String name) {
            this.name = name;
        }

        @Override
        public String greet(String who) {
            calls.incrementAndGet();
            lastCallNanos.set(System.nanoTime());
            return name + ':' + who;
        }
    }
}
