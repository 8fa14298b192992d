package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy;
import io.jupiter.testkit.OwnThreads;
import io.jupiter.transport.TransportConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #26's half-open link, with the keepalive on (5 s; it is opt-in) and the other defaults: two providers, each
 * behind a {@link FaultProxy}; a client calls an idempotent method with {@code failOver(2)}, a 1 s timeout and 2
 * connections per provider. One provider's link goes dead (both directions blackholed: connections stay open,
 * nothing passes). The client's keepalive closes those connections, the calls waiting on them fail over at once, the
 * dead link gets no calls while it stays dead, and the provider gets calls again once it heals.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DeadConnectionTest {

    /** The keepalive timeout this test turns on (the timeout docs/reliability.md suggests). */
    private static final long DETECTION_MILLIS = 5_000;
    /**
     * A call that went to the dead link waits for its 1 s timeout; one that did not takes far less, though on a
     * starved machine (CI at load average 9) healthy calls were seen to take 512 ms: the bound sits below the timeout.
     */
    private static final long NOT_ON_THE_DEAD_LINK_MILLIS = 900;

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final AtomicInteger callsOnA = new AtomicInteger();
    private FaultProxy proxyA;
    private FaultProxy proxyB;
    private EchoService echo;

    @BeforeEach
    void start() throws Exception {
        proxyA = proxyTo(server(callsOnA));
        proxyB = proxyTo(server(new AtomicInteger()));
        JupiterClient client = JupiterClient.builder()
                .transportConfig(TransportConfig.builder().threadNamePrefix("jupiter-connector").readerIdleMillis(0)
                        .keepaliveTimeoutMillis(DETECTION_MILLIS).build())
                .build();
        toClose.add(client);
        echo = client.proxy(EchoService.class)
                .address("127.0.0.1:" + proxyA.port() + ",127.0.0.1:" + proxyB.port())
                .cluster(ClusterStrategy.failOver(2)).idempotent("hello").timeoutMillis(1_000).connections(2)
                .build();
        for (int i = 0; i < 20; i++) {
            assertThat(echo.hello("warm")).isEqualTo("hello, warm");
        }
        assertThat(callsOnA.get()).isPositive();
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void aDeadLinkUnderLoadIsFoundItsCallsFailOverAndItGetsCallsBackWhenItHeals() throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<long[]> calls = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> load = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            load.add(loop(running, calls, failures));
        }
        try {
            Await.until("calls flow", Duration.ofSeconds(10), () -> calls.size() > 500);
            long faultAt = System.nanoTime();
            proxyA.blackhole();
            long detected = faultAt + TimeUnit.MILLISECONDS.toNanos(DETECTION_MILLIS + 1_000);
            long windowEnd = detected + TimeUnit.SECONDS.toNanos(3);
            Await.until("3 s of calls after the detection bound", Duration.ofSeconds(20),
                    () -> System.nanoTime() - windowEnd > 0);
            int callsOnABeforeHealing = callsOnA.get();
            proxyA.healthy();
            Await.until("provider A serves again", Duration.ofSeconds(15),
                    () -> callsOnA.get() > callsOnABeforeHealing + 50);
            running.set(false);
            CompletableFuture.allOf(load.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);

            assertThat(failures).as("calls that failed although provider B was healthy").isEmpty();
            List<long[]> afterDetection = calls.stream()
                    .filter(call -> call[0] - detected > 0 && windowEnd - call[0] > 0).toList();
            assertThat(afterDetection).as("calls started after the detection bound").hasSizeGreaterThan(100);
            assertThat(afterDetection).as("no call started after the detection bound waited on the dead link")
                    .allSatisfy(call -> assertThat(TimeUnit.NANOSECONDS.toMillis(call[1]))
                            .isLessThan(NOT_ON_THE_DEAD_LINK_MILLIS));
        } finally {
            running.set(false);
        }
    }

    @Test
    void anIdleDeadLinkIsFoundBeforeTheNextCall() throws Exception {
        long accepted = proxyA.acceptedConnections();
        long start = System.nanoTime();
        proxyA.blackhole();
        // Nothing to send: only the keepalive can notice. A slot connects again only after its connection closed.
        Await.until("the client closed both connections through the dead link and connects again",
                Duration.ofSeconds(15), () -> proxyA.acceptedConnections() >= accepted + 2);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(DETECTION_MILLIS + 1_500);
        for (int i = 0; i < 20; i++) {
            long callStart = System.nanoTime();
            assertThat(echo.hello("after")).isEqualTo("hello, after");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - callStart))
                    .as("call %d went to provider B at once", i).isLessThan(NOT_ON_THE_DEAD_LINK_MILLIS);
        }
    }

    private CompletableFuture<Void> loop(AtomicBoolean running, ConcurrentLinkedQueue<long[]> calls,
                                         ConcurrentLinkedQueue<Throwable> failures) {
        return CompletableFuture.runAsync(() -> {
            // Bounded: stops when told, or after 200,000 calls.
            for (int i = 0; i < 200_000 && running.get(); i++) {
                long start = System.nanoTime();
                try {
                    echo.hello("x");
                    calls.add(new long[] {start, System.nanoTime() - start});
                } catch (RpcException e) {
                    if (failures.size() < 100) {
                        failures.add(e);
                    }
                }
            }
        }, OwnThreads.EXECUTOR);
    }

    private JupiterServer server(AtomicInteger counter) throws Exception {
        Interceptor count = new Interceptor() {
            @Override
            public void beforeInvoke(Invocation invocation) {
                counter.incrementAndGet();
            }
        };
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).interceptor(count).build();
        server.register(new EchoServiceImpl());
        server.start();
        toClose.add(server);
        return server;
    }

    private FaultProxy proxyTo(JupiterServer server) {
        FaultProxy proxy = FaultProxy.start(server.localAddress().getPort());
        toClose.add(proxy);
        return proxy;
    }
}
