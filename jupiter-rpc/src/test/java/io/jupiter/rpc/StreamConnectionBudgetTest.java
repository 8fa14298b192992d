package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.stream.ProviderStreams;
import io.jupiter.testkit.Await;
import io.jupiter.transport.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28: the streams of one connection together buffer at most {@code streamConnectionBufferBytes} on the
 * provider, whatever each stream's own buffer allows: many streams to a consumer that reads nothing stay under the
 * cap, their producers are held (WAIT), drop (the drop policies) or end (FAIL), and closing the connection frees it
 * all.
 */
@Timeout(60)
class StreamConnectionBudgetTest {

    /** The connection's cap: 256 KiB, while one stream alone may buffer 32 messages of 16 KiB (512 KiB). */
    private static final long CAP = 256 * 1024;
    private static final int MESSAGE = 16 * 1024;
    private static final int STREAMS = 20;
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final FloodServiceImpl impl = new FloodServiceImpl();
    private JupiterServer server;
    private JupiterClient client;
    private FloodService flood;

    @BeforeEach
    void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).streamConnectionBufferBytes(CAP).build();
        server.register(impl);
        server.start();
        client = JupiterClient.builder().build();
        flood = client.proxy(FloodService.class).address("127.0.0.1", server.localAddress().getPort())
                .connections(1).timeoutMillis(10_000).build();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void manyStreamsToAConsumerThatReadsNothingStayUnderTheCapAndTheirProducersWait() throws Exception {
        ProviderStreams streams = server.streams();
        AtomicLong mostBuffered = new AtomicLong();
        List<Reader> readers = open(STREAMS, "WAIT", 10_000);
        // Each reader asked for one message, then reads nothing: every producer sends one and buffers the rest, until
        // the connection's cap holds them all: the count of sends stops moving.
        long[] sent = new long[1];
        Await.until("every producer started and is held", WAIT, () -> {
            mostBuffered.accumulateAndGet(streams.bufferedBytes(), Math::max);
            sent[0] = totalSent();
            return impl.runs.size() == STREAMS && sent[0] >= STREAMS + CAP / (MESSAGE + 64) - 1
                    && Await.holdsFor(Duration.ofMillis(300), () -> {
                        mostBuffered.accumulateAndGet(streams.bufferedBytes(), Math::max);
                        return totalSent() == sent[0];
                    });
        });
        System.out.printf("StreamConnectionBudgetTest: %d streams, per-stream buffers of 512 KiB, a cap of %d bytes:"
                + " %d sends returned, at most %d bytes buffered%n", STREAMS, CAP, sent[0], mostBuffered.get());
        assertThat(mostBuffered.get()).isPositive().isLessThanOrEqualTo(CAP);
        assertThat(sent[0]).as("one each against credit, then what fits under the cap")
                .isLessThanOrEqualTo(STREAMS + CAP / MESSAGE);
        assertThat(impl.runs.values()).allSatisfy(run -> assertThat(run.stopped.getCount()).isEqualTo(1));

        // A reader that reads again gets its messages: its buffer drains, and what it asks for goes out at once.
        Reader first = readers.get(0);
        first.subscription.request(50);
        Await.until("the first reader got 51", WAIT, () -> first.received.get() == 51);
        assertThat(streams.bufferedBytes()).isLessThanOrEqualTo(CAP);

        // The connection closes: every producer stops, every buffer is released, nothing is left per connection.
        client.close();
        for (FloodServiceImpl.Run run : impl.runs.values()) {
            assertThat(run.stopped.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(run.end.get().status()).isEqualTo(Status.CLIENT_ERROR);
        }
        Await.until("nothing left on the provider", WAIT, () -> streams.bufferedBytes() == 0
                && streams.budgetedConnections() == 0 && streams.openStreams() == 0);
    }

    @Test
    void dropPoliciesDropOnceTheConnectionIsFullAndTheProducersGoOn() throws Exception {
        ProviderStreams streams = server.streams();
        open(STREAMS / 2, "DROP_NEWEST", 100);
        open(STREAMS / 2, "DROP_OLDEST", 100);
        Await.until("every producer finished its 100 sends", WAIT, () -> impl.runs.size() == STREAMS
                && impl.runs.values().stream().allMatch(run -> run.stopped.getCount() == 0));
        assertThat(streams.bufferedBytes()).isLessThanOrEqualTo(CAP);
        long dropped = impl.runs.values().stream().mapToLong(run -> run.dropped.get()).sum();
        assertThat(dropped).as("DROP_NEWEST streams saw their sends refused").isPositive();
        assertThat(impl.runs.values()).allSatisfy(run -> assertThat(run.end.get()).isNull());
    }

    @Test
    void failEndsAStreamWithSlowConsumerOnceItsConnectionIsFull() throws Exception {
        open(STREAMS, "WAIT", 10_000);
        Await.until("the connection is full", WAIT, () -> server.streams().bufferedBytes() > CAP - MESSAGE - 64);
        List<Reader> failing = open(1, "FAIL", 10_000);
        Reader reader = failing.get(0);
        assertThat(reader.ended.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(reader.error).isInstanceOfSatisfying(StreamException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.SLOW_CONSUMER);
            assertThat(e.getMessage()).contains("streams of its connection").contains(String.valueOf(CAP));
        });
    }

    @Test
    void aProducerWaitingForTheCapResumesWhenAnotherStreamsReaderDrains() throws Exception {
        ProviderStreams streams = server.streams();
        // A: one message against credit, then 15 or so buffered fill the cap, and its producer waits for room.
        int a = tags.get();
        Reader fill = open(1, "WAIT", 20).get(0);
        Await.until("A fills the cap and waits", WAIT, () -> streams.producersWaitingForTheCap() == 1);
        // B: one message against credit, then no room under the cap: it waits too, with 4 still to send.
        int b = tags.get();
        Reader held = open(1, "WAIT", 5).get(0);
        Await.until("B sent one and waits", WAIT, () -> impl.runs.containsKey(b) && impl.runs.get(b).sent.get() == 1
                && streams.producersWaitingForTheCap() == 2);
        assertThat(impl.runs.get(b).stopped.getCount()).isEqualTo(1);

        // A's reader reads: A's buffer drains and its producer finishes; the bytes freed wake B, which buffers its 4.
        long drained = System.nanoTime();
        fill.subscription.request(100);
        assertThat(impl.runs.get(b).stopped.await(10, TimeUnit.SECONDS)).as("B resumed and finished").isTrue();
        System.out.printf("StreamConnectionBudgetTest: the waiting producer finished %.1f ms after the other stream's"
                + " reader asked for its messages%n", (System.nanoTime() - drained) / 1e6);
        assertThat(impl.runs.get(b).end.get()).isNull();
        assertThat(impl.runs.get(b).sent.get()).isEqualTo(5);
        Await.until("A's reader got its 20", WAIT, () -> fill.received.get() == 20);
        assertThat(impl.runs.get(a).end.get()).isNull();
        assertThat(streams.producersWaitingForTheCap()).isZero();
        held.subscription.request(10);
        Await.until("B's reader got its 5 and the end", WAIT, () -> held.ended.getCount() == 0);
        assertThat(held.received.get()).isEqualTo(5);
        assertThat(held.error).isNull();
    }

    @Test
    void closingTheConnectionWakesTheProducersWaitingForTheCapWithTheError() throws Exception {
        ProviderStreams streams = server.streams();
        open(1, "WAIT", 20);
        Await.until("A fills the cap and waits", WAIT, () -> streams.producersWaitingForTheCap() == 1);
        // Endless: the bytes A's end frees as the connection closes may let B buffer more, but never finish.
        open(1, "WAIT", 10_000);
        Await.until("B waits too", WAIT, () -> streams.producersWaitingForTheCap() == 2);

        client.close();
        for (FloodServiceImpl.Run run : impl.runs.values()) {
            assertThat(run.stopped.await(10, TimeUnit.SECONDS)).as("woken by the close").isTrue();
            assertThat(run.end.get().status()).isEqualTo(Status.CLIENT_ERROR);
        }
        assertThat(streams.producersWaitingForTheCap()).isZero();
        Await.until("nothing left on the provider", WAIT, () -> streams.bufferedBytes() == 0
                && streams.budgetedConnections() == 0 && streams.openStreams() == 0);
    }

    @Test
    void aCapThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> JupiterServer.builder().streamConnectionBufferBytes(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("streamConnectionBufferBytes");
    }

    private final AtomicInteger tags = new AtomicInteger();

    /** Opens {@code n} streams whose readers ask for one message and then read nothing. */
    private List<Reader> open(int n, String policy, int count) {
        List<Reader> readers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Reader reader = new Reader();
            flood.flood(tags.getAndIncrement(), policy, MESSAGE, count).subscribe(reader);
            readers.add(reader);
        }
        return readers;
    }

    private long totalSent() {
        return impl.runs.values().stream().mapToLong(run -> run.sent.get()).sum();
    }

    /** Asks for one message, then only when told to. */
    private static final class Reader implements Flow.Subscriber<String> {
        final AtomicInteger received = new AtomicInteger();
        final CountDownLatch ended = new CountDownLatch(1);
        volatile Flow.Subscription subscription;
        volatile Throwable error;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(String item) {
            received.incrementAndGet();
        }

        @Override
        public void onError(Throwable throwable) {
            error = throwable;
            ended.countDown();
        }

        @Override
        public void onComplete() {
            ended.countDown();
        }
    }
}
