package io.jupiter.rpc.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Where a caller's callbacks run: on a consumer thread by default, never on an IO thread; on the IO thread with
 * {@code consumerThreads(0)}. Each callback is registered before its response can arrive (the provider answers only
 * when the test says so) and nobody waits on the call's future, so it runs on the thread that completes the call.
 */
class CallbackThreadsTest {

    private static final String CONSUMER = "jupiter-consumer-";
    private static final String IO = "jupiter-connector-";

    @Test
    void callbacksRunOnAConsumerThreadByDefault() throws Exception {
        assertThat(callbackThread(JupiterClient.builder().build())).startsWith(CONSUMER);
    }

    @Test
    void callbacksRunOnTheIoThreadWithoutConsumerThreads() throws Exception {
        assertThat(callbackThread(JupiterClient.builder().consumerThreads(0).build())).startsWith(IO);
    }

    @Test
    void callbacksRunOnTheApplicationsExecutorWhenItGivesOne() throws Exception {
        ExecutorService callbacks = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "app-callbacks"));
        try {
            assertThat(callbackThread(JupiterClient.builder().callbackExecutor(callbacks).build()))
                    .startsWith("app-callbacks");
            assertThat(callbacks.isShutdown()).as("the application's executor is left to it").isFalse();
        } finally {
            callbacks.shutdownNow();
        }
    }

    @Test
    void aBurstOfAsyncCallsLargerThanTheConsumerQueueCompletesEveryCall() throws Exception {
        LaterServiceImpl later = new LaterServiceImpl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().consumerThreads(1).maxInFlight(64).build()) {
            server.register(later);
            InetSocketAddress address = server.start();
            LaterService async = client.proxy(LaterService.class).address("127.0.0.1", address.getPort())
                    .invokeType(InvokeType.ASYNC).timeoutMillis(30_000).build();
            int calls = 5_000;
            AtomicInteger callbacks = new AtomicInteger();
            List<CompletableFuture<?>> all = new ArrayList<>(calls);
            for (int i = 0; i < calls; i++) {
                async.now("v" + i);
                InvokeFuture<String> future = InvokeFutureContext.future(String.class);
                String expected = "v" + i;
                all.add(future.thenAccept(value -> {
                    assertThat(value).isEqualTo(expected);
                    callbacks.incrementAndGet();
                }));
            }

            CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);

            assertThat(callbacks).hasValue(calls);
        }
    }

    private static String callbackThread(JupiterClient client) throws Exception {
        LaterServiceImpl later = new LaterServiceImpl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build(); client) {
            server.register(later);
            InetSocketAddress address = server.start();
            LaterService service = client.proxy(LaterService.class).address("127.0.0.1", address.getPort()).build();
            CompletableFuture<String> callbackRanOn = new CompletableFuture<>();

            CompletableFuture<String> answer = service.later("x");
            answer.whenComplete((value, error) -> callbackRanOn.complete(value + "@" + Thread.currentThread().getName()));
            later.answerOne();

            // Not answer.get(): a thread waiting in get() may run the callback itself once the value is in.
            String ranOn = callbackRanOn.get(10, TimeUnit.SECONDS);
            assertThat(ranOn).startsWith("x@");
            return ranOn.substring(2);
        }
    }
}
