package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where a consumer's stream messages are read and handed to its subscriber: on delivery threads by default, never on
 * an IO thread; on the IO thread that read them when the client runs its callbacks there ({@code consumerThreads(0)}),
 * the fast path without a hand-off per message. Real sockets on 127.0.0.1.
 */
@Timeout(60)
class StreamDeliveryThreadsTest {

    private static final String IO = "jupiter-connector-";
    private static final String DELIVERY = "jupiter-stream-delivery";

    private static JupiterServer server;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(new TickServiceImpl());
        server.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void messagesReachTheSubscriberOffTheIoThreadsByDefault() throws Exception {
        try (JupiterClient client = JupiterClient.builder().build()) {
            Set<String> threads = subscriberThreads(client, 200);
            assertThat(threads).isNotEmpty().allMatch(name -> name.startsWith(DELIVERY));
        }
    }

    @Test
    void withoutConsumerThreadsMessagesReachTheSubscriberOnTheIoThread() throws Exception {
        try (JupiterClient client = JupiterClient.builder().consumerThreads(0).build()) {
            // No hand-off: a message is delivered by the thread that makes it deliverable, the IO thread that read
            // it, or the subscriber's own thread when it asks for one already there (its first, at most, here: each
            // next one is asked for a round trip ahead).
            String caller = Thread.currentThread().getName();
            Set<String> threads = subscriberThreads(client, 200);
            assertThat(threads).isNotEmpty().allMatch(name -> name.startsWith(IO) || name.equals(caller))
                    .anyMatch(name -> name.startsWith(IO));

            // The blocking iterator works the same there: its reader's thread is the caller's, the IO thread only
            // queues, so nothing waits on the thread that must read.
            List<Long> read = new ArrayList<>();
            try (StreamIterator<Long> it = Streams.iterate(ticks(client).count(3_000))) {
                while (it.hasNext()) {
                    read.add(it.next());
                }
            }
            assertThat(read).hasSize(3_000);
            assertThat(read.get(2_999)).isEqualTo(2_999L);
        }
    }

    private static TickService ticks(JupiterClient client) {
        return client.proxy(TickService.class).address("127.0.0.1", server.localAddress().getPort())
                .connections(1).timeoutMillis(30_000).build();
    }

    /**
     * Reads {@code n} messages with a {@code Flow.Subscriber} that asks for one at a time; returns the threads its
     * {@code onNext} ran on.
     */
    private static Set<String> subscriberThreads(JupiterClient client, int n) throws InterruptedException {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        long[] received = new long[1];
        ticks(client).count(n).subscribe(new Flow.Subscriber<>() {
            private Flow.Subscription subscription;

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                this.subscription = subscription;
                subscription.request(1);
            }

            @Override
            public void onNext(Long item) {
                threads.add(Thread.currentThread().getName());
                received[0]++;
                subscription.request(1);
            }

            @Override
            public void onError(Throwable throwable) {
                failed.set(throwable);
                done.countDown();
            }

            @Override
            public void onComplete() {
                done.countDown();
            }
        });
        assertThat(done.await(30, TimeUnit.SECONDS)).as("the stream ended").isTrue();
        assertThat(failed.get()).isNull();
        assertThat(received[0]).isEqualTo(n);
        return threads;
    }
}
