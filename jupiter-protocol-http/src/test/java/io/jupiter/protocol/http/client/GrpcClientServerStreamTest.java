package io.jupiter.protocol.http.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.jupiter.common.NamedThreadFactory;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Server streams of grpc-java's own server read by a Jupiter proxy ({@code Flow.Publisher<R> m(Q)}). */
class GrpcClientServerStreamTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static Streams proxy(JupiterClient client, EchoServer server) {
        return client.proxy(Streams.class).name(EchoServer.SERVICE)
                .protocol(GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL).build())
                .address(server.address()).timeoutMillis(60_000).build();
    }

    @Test
    void everyMessageArrivesInOrderAsTheSubscriberAsks() throws Exception {
        ExecutorService callbacks = Executors.newFixedThreadPool(2, new NamedThreadFactory("app-callback", true));
        try (EchoServer server = new EchoServer("s");
             JupiterClient client = JupiterClient.builder().callbackExecutor(callbacks).build()) {
            Collector<Int64Value> collector = new Collector<>(10, 10);
            proxy(client, server).count(Int64Value.of(2000)).subscribe(collector);
            collector.awaitEnd();
            assertThat(collector.error.get()).isNull();
            assertThat(collector.values).hasSize(2000);
            for (int i = 0; i < 2000; i++) {
                assertThat(collector.values.get(i).getValue()).isEqualTo(i + 1);
            }
            // Delivered on the client's callback executor, not on the protocol's IO thread.
            assertThat(collector.threads).allSatisfy(name -> assertThat(name).startsWith("app-callback"));
        } finally {
            callbacks.shutdownNow();
        }
    }

    @Test
    void anErrorStatusMidStreamEndsItWithTheMappedException() throws Exception {
        try (EchoServer server = new EchoServer("s");
             JupiterClient client = JupiterClient.builder().build()) {
            Collector<Int64Value> collector = new Collector<>(Long.MAX_VALUE, 0);
            proxy(client, server).failAfter(Int64Value.of(3)).subscribe(collector);
            collector.awaitEnd();
            assertThat(collector.values).extracting(Int64Value::getValue).containsExactly(1L, 2L, 3L);
            assertThat(collector.completed).isFalse();
            assertThat(collector.error.get()).isInstanceOfSatisfying(RemoteServiceException.class, e -> {
                assertThat(e.status()).isEqualTo(StatusTable.SERVICE_EXPECTED_ERROR.status());
                assertThat(e).hasMessageContaining("grpc-status 5 NOT_FOUND")
                        .hasMessageContaining("/test.Echo/FailAfter").hasMessageContaining("gone after 3");
            });
            // Without a callback executor the IO thread delivers, as it completes async unary calls.
            assertThat(collector.threads).allSatisfy(name -> assertThat(name).startsWith("jupiter-grpc-client"));
        }
    }

    @Test
    void aSubscriberThatStopsAskingHoldsTheServerBackAndCancelResetsTheStream() throws Exception {
        try (EchoServer server = new EchoServer("s");
             JupiterClient client = JupiterClient.builder().build()) {
            Streams streams = proxy(client, server);
            Collector<StringValue> collector = new Collector<>(1, 0);
            streams.flood(Int64Value.of(100_000)).subscribe(collector); // 100 MiB offered
            // A second stalled stream on the same connection: together they hold more than HTTP/2's initial
            // connection window (64 KiB), which the client widened, so unary calls still pass beside them.
            Collector<StringValue> other = new Collector<>(1, 0);
            streams.flood(Int64Value.of(100_000)).subscribe(other);
            Await.until("the server's stream not ready", WAIT, server.heldBack::get);
            Await.until("one message delivered", WAIT, () -> collector.values.size() == 1);
            Await.until("the server stops sending", WAIT, () -> {
                int before = server.streamed.get();
                return Await.holdsFor(Duration.ofMillis(300), () -> server.streamed.get() == before);
            });
            // Held back by each stream's window (64 KiB), what one read took and grpc-java's own buffer: 1 KiB
            // messages, far below the 200,000 offered.
            assertThat(server.streamed.get()).isLessThan(2000);
            assertThat(collector.values).hasSize(1);
            assertThat(other.values).hasSize(1);
            assertThat(streams.echo(StringValue.of("beside")).getValue()).isEqualTo("s:beside");
            System.out.println("server stream held back after " + server.streamed.get() + " messages of 1 KiB");

            collector.subscription.get().cancel();
            Await.until("the server sees the stream cancelled", WAIT, () -> server.cancelled.get() == 1);
            other.subscription.get().cancel();
            Await.until("the server sees the other cancelled", WAIT, () -> server.cancelled.get() == 2);
            assertThat(collector.error.get()).isNull();
            assertThat(collector.completed).isFalse();
            // The connection goes on: a new stream on it.
            Collector<Int64Value> next = new Collector<>(Long.MAX_VALUE, 0);
            streams.count(Int64Value.of(3)).subscribe(next);
            next.awaitEnd();
            assertThat(next.values).extracting(Int64Value::getValue).containsExactly(1L, 2L, 3L);
        }
    }

    @Test
    void theTimeoutGoesOutAsGrpcTimeoutAndEndsAStreamThatOutlivesIt() throws Exception {
        try (EchoServer server = new EchoServer("s");
             JupiterClient client = JupiterClient.builder().build()) {
            Streams streams = client.proxy(Streams.class).name(EchoServer.SERVICE)
                    .protocol(GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL).build())
                    .address(server.address()).timeoutMillis(60_000).methodTimeoutMillis("flood", 500).build();
            Collector<StringValue> collector = new Collector<>(1, 0); // asks one, so the stream never ends
            streams.flood(Int64Value.of(100_000)).subscribe(collector);
            collector.awaitEnd();
            assertThat(collector.values).hasSize(1);
            assertThat(collector.error.get()).isInstanceOfSatisfying(TimeoutException.class, e -> assertThat(e)
                    .hasMessageContaining("the stream did not end within 500 ms"));
            assertThat(server.deadlinesMillis).singleElement()
                    .satisfies(left -> assertThat(left).isBetween(0L, 500L));
            Await.until("the server sees the stream end", WAIT, () -> server.cancelled.get() == 1);
        }
    }

    @Test
    void aStreamCancelledAsItIsSubscribedGivesItsSlotBack() throws Exception {
        try (EchoServer server = new EchoServer("s");
             JupiterClient client = JupiterClient.builder().build()) {
            Streams streams = client.proxy(Streams.class).name(EchoServer.SERVICE)
                    .protocol(GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL).maxStreams(2)
                            .build())
                    .address(server.address()).timeoutMillis(60_000).build();
            for (int i = 0; i < 5; i++) { // more than the connection's 2 streams
                streams.count(Int64Value.of(3)).subscribe(new Collector<>(1, 0) {
                    @Override
                    public void onSubscribe(Flow.Subscription s) {
                        s.cancel();
                    }
                });
            }
            Collector<Int64Value> next = new Collector<>(Long.MAX_VALUE, 0);
            streams.count(Int64Value.of(3)).subscribe(next);
            next.awaitEnd();
            assertThat(next.error.get()).isNull();
            assertThat(next.values).extracting(Int64Value::getValue).containsExactly(1L, 2L, 3L);
        }
    }

    @Test
    void aPublisherTakesOneSubscriber() throws Exception {
        try (EchoServer server = new EchoServer("s");
             JupiterClient client = JupiterClient.builder().build()) {
            Flow.Publisher<Int64Value> stream = proxy(client, server).count(Int64Value.of(2));
            Collector<Int64Value> first = new Collector<>(Long.MAX_VALUE, 0);
            Collector<Int64Value> second = new Collector<>(Long.MAX_VALUE, 0);
            stream.subscribe(first);
            stream.subscribe(second);
            first.awaitEnd();
            second.awaitEnd();
            assertThat(first.values).hasSize(2);
            assertThat(second.error.get()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("has a subscriber already");
        }
    }

    /** Asks {@code first} messages, then {@code batch} more each time a batch arrived (0: never more). */
    private static class Collector<T> implements Flow.Subscriber<T> {

        private final long first;
        private final long batch;
        final List<T> values = Collections.synchronizedList(new ArrayList<>());
        final Set<String> threads = ConcurrentHashMap.newKeySet();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
        volatile boolean completed;
        private final CountDownLatch end = new CountDownLatch(1);
        private long sinceAsked;

        Collector(long first, long batch) {
            this.first = first;
            this.batch = batch;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription.set(s);
            s.request(first);
        }

        @Override
        public void onNext(T item) {
            threads.add(Thread.currentThread().getName());
            values.add(item);
            if (batch > 0 && ++sinceAsked == (values.size() <= first ? first : batch)) {
                sinceAsked = 0;
                subscription.get().request(batch);
            }
        }

        @Override
        public void onError(Throwable t) {
            threads.add(Thread.currentThread().getName());
            error.set(t);
            end.countDown();
        }

        @Override
        public void onComplete() {
            threads.add(Thread.currentThread().getName());
            completed = true;
            end.countDown();
        }

        void awaitEnd() throws InterruptedException {
            assertThat(end.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the stream ended").isTrue();
        }
    }
}
