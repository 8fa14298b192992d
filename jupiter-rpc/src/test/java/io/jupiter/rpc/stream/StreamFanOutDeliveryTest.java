package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #39, fan-out delivery on the consumer with the default settings: the streams of one connection that a topic's
 * message makes deliverable together are handed to the delivery threads by a few tasks, not one task each. Every stream
 * still gets every message in order, a subscriber that blocks holds up only its own stream, and a burst to thousands
 * of subscribers takes a few delivery threads, not one each. Thousands of streams over one connection on 127.0.0.1.
 */
@Timeout(180)
class StreamFanOutDeliveryTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String DELIVERY = "jupiter-stream-delivery";

    private LoopbackPair pair;
    private TickServiceImpl impl;
    private TickService ticks;

    @BeforeEach
    void start() {
        impl = new TickServiceImpl();
        pair = LoopbackPair.serving(impl);
        ticks = pair.proxy(TickService.class, 30_000);
    }

    @AfterEach
    void stop() {
        pair.close();
    }

    @Test
    void thousandsOfStreamsOfOneConnectionGetEveryMessageInOrder() throws Exception {
        int subscribers = 3_000;
        int messages = 20;
        List<Recorder<String>> readers = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            Recorder<String> reader = new Recorder<>(Long.MAX_VALUE);
            ticks.quotes("WAIT", 32).subscribe(reader);
            readers.add(reader);
        }
        Await.until("every stream joined the topic", WAIT, () -> impl.quotes.subscriberCount() == subscribers);

        for (int m = 0; m < messages; m++) {
            assertThat(impl.quotes.publish("q" + m)).isEqualTo(subscribers);
        }
        Await.until("every reader has every message", WAIT,
                () -> readers.stream().allMatch(r -> r.items.size() == messages));
        List<String> expected = IntStream.range(0, messages).mapToObj(m -> "q" + m).toList();
        for (Recorder<String> reader : readers) {
            assertThat(reader.items).containsExactlyElementsOf(expected);
            assertThat(reader.error).isNull();
        }
    }

    @Test
    void aSubscriberBlockedInOnNextHoldsUpOnlyItsOwnStream() throws Exception {
        int subscribers = 1_000;
        int messages = 10;
        CountDownLatch release = new CountDownLatch(1);
        Counting blocked = new Counting(() -> await(release));
        ticks.quotes("WAIT", 32).subscribe(blocked);
        List<Counting> others = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            Counting reader = new Counting(() -> { });
            ticks.quotes("WAIT", 32).subscribe(reader);
            others.add(reader);
        }
        Await.until("every stream joined the topic", WAIT, () -> impl.quotes.subscriberCount() == subscribers + 1);

        for (int m = 0; m < messages; m++) {
            assertThat(impl.quotes.publish("q" + m)).isEqualTo(subscribers + 1);
        }
        try {
            // Its first message reached the blocked subscriber, which stays in onNext; every other stream goes on.
            Await.until("the blocked subscriber is in onNext", WAIT, () -> blocked.entered.get() == 1);
            Await.until("every other reader has every message", WAIT,
                    () -> others.stream().allMatch(r -> r.received.get() == messages));
            assertThat(blocked.received.get()).isZero();
        } finally {
            release.countDown();
        }
        Await.until("the blocked subscriber caught up", WAIT, () -> blocked.received.get() == messages);
        assertThat(others).allMatch(r -> r.error == null);
    }

    @Test
    void aBurstToThousandsOfSubscribersTakesFewDeliveryThreads() throws Exception {
        int subscribers = 2_000;
        int messages = 3;
        Set<String> threads = ConcurrentHashMap.newKeySet();
        // Each delivery after the first takes a while (50 ms parked): handed over one task per stream, nearly every
        // stream of a burst would hold a delivery thread of its own at once.
        List<Counting> readers = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            AtomicInteger seen = new AtomicInteger();
            Counting reader = new Counting(() -> {
                if (seen.incrementAndGet() > 1) {
                    threads.add(Thread.currentThread().getName());
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
                }
            });
            ticks.quotes("WAIT", 32).subscribe(reader);
            readers.add(reader);
        }
        Await.until("every stream joined the topic", WAIT, () -> impl.quotes.subscriberCount() == subscribers);
        // The first message tells each stream its messages' size, so it grants credit for the burst that follows.
        assertThat(impl.quotes.publish("q0")).isEqualTo(subscribers);
        Await.until("every reader has the first message", WAIT,
                () -> readers.stream().allMatch(r -> r.received.get() == 1));

        for (int m = 1; m < messages; m++) {
            assertThat(impl.quotes.publish("q" + m)).isEqualTo(subscribers);
        }
        Await.until("every reader has every message", WAIT,
                () -> readers.stream().allMatch(r -> r.received.get() == messages));
        System.out.println("StreamFanOutDeliveryTest: a burst to " + subscribers + " subscribers ran on "
                + threads.size() + " delivery threads");
        assertThat(threads).allMatch(name -> name.startsWith(DELIVERY));
        // A connection runs at most max(2, ready / 64) tasks at once, 32 here: a thread per 64 streams, not per stream
        // (a pool's thread may be replaced between tasks: the bound is loose).
        assertThat(threads.size()).as("delivery threads used for %d streams", subscribers)
                .isLessThan(subscribers / 10);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Counts what it gets, running {@code onEach} first in every {@code onNext}; asks for everything. */
    private static final class Counting implements Flow.Subscriber<String> {
        final AtomicInteger entered = new AtomicInteger();
        final AtomicInteger received = new AtomicInteger();
        private final Runnable onEach;
        volatile Throwable error;

        Counting(Runnable onEach) {
            this.onEach = onEach;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String item) {
            entered.incrementAndGet();
            onEach.run();
            received.incrementAndGet();
        }

        @Override
        public void onError(Throwable throwable) {
            error = throwable;
        }

        @Override
        public void onComplete() {
        }
    }
}
