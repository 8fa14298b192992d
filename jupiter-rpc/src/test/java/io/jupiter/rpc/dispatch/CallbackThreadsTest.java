package io.jupiter.rpc.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.transport.TransportConfig;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
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
        ExecutorService callbacks =
                Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "app-callbacks"));
        try {
            assertThat(callbackThread(JupiterClient.builder().callbackExecutor(callbacks).build()))
                    .startsWith("app-callbacks");
            assertThat(callbacks.isShutdown()).as("the application's executor is left to it").isFalse();
        } finally {
            callbacks.shutdownNow();
        }
    }

    @Test
    void withAdaptiveCallbacksOnFastCallbacksMoveToTheIoThread() throws Exception {
        LaterServiceImpl later = new LaterServiceImpl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().adaptiveCallbacks(true).build()) {
            server.register(later);
            InetSocketAddress address = server.start();
            LaterService service = client.proxy(LaterService.class).address("127.0.0.1", address.getPort()).build();
            // 1,000 fast completions move them; each window failed by a stray pause (a GC, a preempted thread on a
            // busy machine) makes the next ten times longer (10,000, then 100,000 calls), so the bound is the
            // deadline, not a count of batches. The callbacks only record their thread: waking this thread is left
            // to the last of each batch.
            List<String> ranOn = List.of();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int batch = 0; batch < 400 && System.nanoTime() < deadline; batch++) {
                ranOn = callbackThreads(service, later, 500);
                if (ranOn.stream().anyMatch(thread -> thread.startsWith(IO))) {
                    break;
                }
                assertThat(ranOn).allMatch(thread -> thread.startsWith(CONSUMER));
            }
            assertThat(ranOn).anyMatch(thread -> thread.startsWith(IO));
        }
    }

    /** The threads callbacks of {@code calls} calls ran on, each registered before its call is answered. */
    private static List<String> callbackThreads(LaterService service, LaterServiceImpl later, int calls)
            throws Exception {
        String[] threads = new String[calls];
        // A latch, not allOf(...).get(): the waiting thread parks instead of spinning on the two cores the
        // callbacks need, whose timing is what is learned.
        CountDownLatch done = new CountDownLatch(calls);
        for (int i = 0; i < calls; i++) {
            int index = i;
            service.later("v" + i).whenComplete((v, error) -> {
                threads[index] = Thread.currentThread().getName();
                done.countDown();
            });
        }
        for (int i = 0; i < calls; i++) {
            later.answerOne();
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).as("all %d calls completed", calls).isTrue();
        return List.of(threads);
    }

    @Test
    void byDefaultFastCallbacksStayOnTheConsumerThreads() throws Exception {
        LaterServiceImpl later = new LaterServiceImpl();
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().build()) {
            server.register(later);
            InetSocketAddress address = server.start();
            LaterService service = client.proxy(LaterService.class).address("127.0.0.1", address.getPort()).build();
            for (int i = 0; i < 1_500; i++) {
                assertThat(callbackThread(service, later, "w" + i)).startsWith(CONSUMER);
            }
        }
    }

    /** The thread a callback of one call ran on, registered before the call is answered. */
    private static String callbackThread(LaterService service, LaterServiceImpl later, String value)
            throws Exception {
        CompletableFuture<String> callbackRanOn = new CompletableFuture<>();
        CompletableFuture<String> answer = service.later(value);
        answer.whenComplete((v, error) -> callbackRanOn.complete(Thread.currentThread().getName()));
        later.answerOne();
        return callbackRanOn.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aSynchronousCallFromACallbackOnTheIoThreadThatWouldReadItsAnswerFailsAtOnce() throws Exception {
        try (JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
             JupiterClient client = JupiterClient.builder().consumerThreads(0)
                     .transportConfig(TransportConfig.builder().ioThreads(1).build()).build()) {
            LaterServiceImpl later = new LaterServiceImpl();
            server.register(later);
            InetSocketAddress address = server.start();
            LaterService service = client.proxy(LaterService.class).address("127.0.0.1", address.getPort())
                    .timeoutMillis(30_000).build();
            CompletableFuture<Throwable> nested = new CompletableFuture<>();

            service.now("warm");
            CompletableFuture<String> answer = service.later("x");
            answer.whenComplete((value, error) -> {
                try {
                    service.now("nested");
                    nested.complete(null);
                } catch (Throwable t) {
                    nested.complete(t);
                }
            });
            later.answerOne();

            assertThat(nested.get(10, TimeUnit.SECONDS)).isInstanceOf(RpcException.class)
                    .hasMessageContaining("called synchronously on the IO thread");
            assertThat(service.now("after")).isEqualTo("after");
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
            answer.whenComplete((value, error) ->
                    callbackRanOn.complete(value + "@" + Thread.currentThread().getName()));
            later.answerOne();

            // Not answer.get(): a thread waiting in get() may run the callback itself once the value is in.
            String ranOn = callbackRanOn.get(10, TimeUnit.SECONDS);
            assertThat(ranOn).startsWith("x@");
            return ranOn.substring(2);
        }
    }
}
