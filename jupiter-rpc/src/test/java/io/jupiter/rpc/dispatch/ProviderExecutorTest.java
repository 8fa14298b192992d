package io.jupiter.rpc.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.internal.VirtualThreads;
import io.jupiter.testkit.OwnThreads;
import io.jupiter.transport.Status;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Provider calls on an executor the application gives (for the server, or one service), and on virtual threads
 * (JDK 21 and later). Real server and client on 127.0.0.1; the methods answer with the name of their thread.
 */
class ProviderExecutorTest {

    @Test
    void theApplicationsExecutorRunsTheCallsAndIsLeftToIt() throws Exception {
        ExecutorService app = named("app-provider-", 2);
        try {
            try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).executor(app)
                    .adaptiveDispatch(false).build();
                 JupiterClient client = JupiterClient.builder().build()) {
                server.register(new ThreadServiceImpl());
                ThreadService threads = proxy(client, server.start());

                assertThat(threads.plain()).startsWith("app-provider-");
                assertThat(threads.sleepy(1_000)).startsWith("app-provider-");
                assertThat(threads.declaredOnInterface()).startsWith("jupiter-acceptor-worker-");
            }
            assertThat(app.isShutdown()).isFalse();
        } finally {
            app.shutdownNow();
        }
    }

    @Test
    void callsBeyondTheQueueCapacityHandedToTheExecutorAreAnsweredServerBusy() throws Exception {
        ExecutorService app = named("app-provider-", 4);
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).executor(app).queueCapacity(2)
                .adaptiveDispatch(false).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            ThreadService threads = proxy(client, server.start());
            List<CompletableFuture<String>> calls = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> threads.sleepy(1_000_000), OwnThreads.EXECUTOR));
            }

            List<Throwable> failures = new ArrayList<>();
            int served = 0;
            for (CompletableFuture<String> call : calls) {
                try {
                    assertThat(call.get(30, TimeUnit.SECONDS)).startsWith("app-provider-");
                    served++;
                } catch (ExecutionException e) {
                    failures.add(e.getCause());
                }
            }

            assertThat(served).isEqualTo(2);
            assertThat(failures).hasSize(1);
            assertThat(failures.get(0)).isInstanceOf(RpcException.class)
                    .hasMessageContaining("not finished (at most 2)");
            assertThat(((RpcException) failures.get(0)).status()).isEqualTo(Status.SERVER_BUSY);
        } finally {
            app.shutdownNow();
        }
    }

    @Test
    void aServicesOwnExecutorRunsThatServiceOnly() throws Exception {
        ExecutorService own = named("own-", 1);
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).adaptiveDispatch(false).build();
             JupiterClient client = JupiterClient.builder().build();
             JupiterClient inner = JupiterClient.builder().build()) {
            ServiceKey key = server.register(new ThreadServiceImpl());
            server.executor(key, own);
            InetSocketAddress address = server.start();
            server.register(new AdaptiveDispatchTest.RelayImpl(proxy(inner, address)));
            AdaptiveDispatchTest.Relay relay = client.proxy(AdaptiveDispatchTest.Relay.class)
                    .address("127.0.0.1", address.getPort()).build();

            String[] where = relay.relay().split("/");

            assertThat(where[0]).startsWith("jupiter-provider-");
            assertThat(where[1]).startsWith("own-");
            // A body too large for the IO thread to read is read on the pool, then still runs on the service's own.
            assertThat(proxy(client, address).echoThread("x".repeat(40_000))).startsWith("own-");
        } finally {
            own.shutdownNow();
        }
    }

    @Test
    void virtualThreadsRunBlockingCallsOnJdk21AndLater() throws Exception {
        Assumptions.assumeTrue(VirtualThreads.available(), "virtual threads need JDK 21 or later");
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).virtualThreads().build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(new ThreadServiceImpl());
            ThreadService threads = proxy(client, server.start());
            int callers = 200;
            AtomicInteger onVirtualThreads = new AtomicInteger();
            List<CompletableFuture<Void>> calls = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                calls.add(CompletableFuture.runAsync(() -> {
                    if (threads.sleepy(50_000).startsWith("jupiter-provider-virtual-")) {
                        onVirtualThreads.incrementAndGet();
                    }
                }, OwnThreads.EXECUTOR));
            }

            CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);

            assertThat(onVirtualThreads).hasValue(callers);
        }
    }

    @Test
    void virtualThreadsBeforeJdk21FailWithAClearError() {
        Assumptions.assumeFalse(VirtualThreads.available(), "this JDK has virtual threads");
        assertThatThrownBy(() -> JupiterServer.builder().virtualThreads())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("JDK 21 or later");
    }

    private static ExecutorService named(String prefix, int threads) {
        AtomicInteger count = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    private static ThreadService proxy(JupiterClient client, InetSocketAddress address) {
        return client.proxy(ThreadService.class).address("127.0.0.1", address.getPort()).timeoutMillis(30_000)
                .build();
    }
}
