package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28, fan-out: a {@link Topic} pushes each message to every subscribed stream, serialized once; nothing is
 * dropped under the wait policy, a subscriber that stops reading holds at most its own buffer, and a waiting
 * subscriber holds the publisher back. 1,000 subscribers over 4 connections on 127.0.0.1.
 */
@Timeout(120)
class TopicFanOutTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int SUBSCRIBERS = 1000;
    private static final int MESSAGES = 100;

    private JupiterServer server;
    private JupiterClient client;
    private TickServiceImpl impl;
    private TickService ticks;

    @BeforeEach
    void start() {
        impl = new TickServiceImpl();
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(impl);
        server.start();
        client = JupiterClient.builder().build();
        ticks = client.proxy(TickService.class).address("127.0.0.1", server.localAddress().getPort())
                .connections(4).timeoutMillis(10_000).build();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void everySubscriberGetsEveryMessageInOrderAndAStalledOneHoldsOnlyItsBuffer() throws Exception {
        List<Recorder<String>> readers = new ArrayList<>();
        for (int i = 0; i < SUBSCRIBERS; i++) {
            Recorder<String> reader = new Recorder<>(Long.MAX_VALUE);
            ticks.quotes("WAIT", 32).subscribe(reader);
            readers.add(reader);
        }
        Recorder<String> stalled = new Recorder<>(0);
        ticks.quotes("DROP_OLDEST", 8).subscribe(stalled);
        Await.until("every stream joined the topic", WAIT,
                () -> impl.quotes.subscriberCount() == SUBSCRIBERS + 1);

        for (int m = 0; m < MESSAGES; m++) {
            assertThat(impl.quotes.publish("q" + m)).isGreaterThanOrEqualTo(SUBSCRIBERS);
        }
        List<String> expected = IntStream.range(0, MESSAGES).mapToObj(m -> "q" + m).toList();
        Await.until("every reader has every message", WAIT,
                () -> readers.stream().allMatch(r -> r.items.size() == MESSAGES));
        for (Recorder<String> reader : readers) {
            assertThat(reader.items).containsExactlyElementsOf(expected);
            assertThat(reader.error).isNull();
        }
        assertThat(impl.quotes.serializations()).as("one serialization per message").isEqualTo(MESSAGES);

        // The stalled reader asked for nothing: the provider held its 8 newest, and nothing else.
        stalled.subscription.request(MESSAGES);
        Await.until("the stalled reader's buffer", WAIT, () -> stalled.items.size() == 8);
        assertThat(Await.holdsFor(Duration.ofMillis(200), () -> stalled.items.size() == 8)).isTrue();
        assertThat(stalled.items).containsExactlyElementsOf(expected.subList(MESSAGES - 8, MESSAGES));

        impl.quotes.close();
        Await.until("every stream completed", WAIT, () -> readers.stream().allMatch(r -> r.completed)
                && stalled.completed);
        Await.until("the topic is empty", WAIT, () -> impl.quotes.subscriberCount() == 0);
    }

    /**
     * Small messages go out copied into the connection's next write (no frame of their own), mid-sized ones as frames
     * copied by the writer, large ones (a frame above 1 KiB) queued as they are between them: every subscriber still
     * gets every message whole and in order.
     */
    @Test
    void messagesOfEverySizeReachEverySubscriberWholeAndInOrder() throws Exception {
        int subscribers = 200;
        int messages = 60;
        List<Recorder<String>> readers = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            Recorder<String> reader = new Recorder<>(Long.MAX_VALUE);
            ticks.quotes("WAIT", 16).subscribe(reader);
            readers.add(reader);
        }
        Await.until("every stream joined the topic", WAIT, () -> impl.quotes.subscriberCount() == subscribers);

        List<String> expected = IntStream.range(0, messages)
                .mapToObj(m -> "q" + m + "-" + "x".repeat(m % 3 == 0 ? 0 : m % 3 == 1 ? 300 : 3000)).toList();
        for (String message : expected) {
            assertThat(impl.quotes.publish(message)).isEqualTo(subscribers);
        }
        Await.until("every reader has every message", WAIT,
                () -> readers.stream().allMatch(r -> r.items.size() == messages));
        for (Recorder<String> reader : readers) {
            assertThat(reader.items).containsExactlyElementsOf(expected);
            assertThat(reader.error).isNull();
        }
    }

    @Test
    void aWaitingSubscriberHoldsThePublisherBackUntilItReadsOrLeaves() throws Exception {
        Recorder<String> fast = new Recorder<>(Long.MAX_VALUE);
        ticks.quotes("WAIT", 32).subscribe(fast);
        Recorder<String> slow = new Recorder<>(2);
        ticks.quotes("WAIT", 4).subscribe(slow);
        Await.until("both joined", WAIT, () -> impl.quotes.subscriberCount() == 2);

        AtomicInteger published = new AtomicInteger();
        Thread publisher = new Thread(() -> {
            try {
                for (int m = 0; m < 20; m++) {
                    impl.quotes.publish("q" + m);
                    published.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "test-publisher");
        publisher.setDaemon(true);
        publisher.start();
        // 2 against the slow reader's credit, 4 in its buffer; the 7th publish waits for it.
        Await.until("the publisher waits", WAIT, () -> published.get() == 6);
        assertThat(Await.holdsFor(Duration.ofMillis(300), () -> published.get() == 6)).isTrue();
        // The 7th publish waits on the slow reader; the fast one, served first, may already have it.
        assertThat(fast.items.size()).as("nothing dropped, at most the waiting message ahead").isBetween(6, 7);

        slow.subscription.request(3);
        Await.until("3 more published", WAIT, () -> published.get() == 9);
        // Its 5 messages are sent; they arrive after the publisher moved on, so wait for them before leaving (a cancel
        // drops what arrives after it).
        Await.until("the slow reader has its 5", WAIT, () -> slow.items.size() == 5);
        slow.subscription.cancel(); // the slow one leaves: the publisher runs free
        publisher.join(WAIT.toMillis());
        assertThat(published.get()).isEqualTo(20);
        Await.until("the fast reader has all", WAIT, () -> fast.items.size() == 20);
        assertThat(fast.items).containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(m -> "q" + m).toList());
        assertThat(slow.items).containsExactlyElementsOf(IntStream.range(0, 5).mapToObj(m -> "q" + m).toList());
    }
}
