package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #39: a receiving stream lets in the messages its byte window ({@code jupiter.rpc.stream.window.bytes}, 1 MiB)
 * holds at their size, whatever its message window (1,024 by default on both sides): a slow reader of 64 KiB
 * messages holds about 16 of them, not 1,024, in a server stream read with the default iterator and in a client
 * stream whose method asks for everything; and readers that all stop hold their connection's window
 * ({@code jupiter.rpc.stream.connection.window.bytes}, 8 MiB) between them. The credit on the wire stays counted in
 * messages.
 */
@Timeout(60)
class StreamByteWindowTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int SIZE = 64 * 1024;
    /** Messages read before the reader stops: well past the first grant, so the window knows the size. */
    private static final int READ = 40;
    /** 64 KiB messages within 1 MiB, the sender's buffer of 4, one send waiting, one in the stalled reader's hands. */
    private static final int MOST_AHEAD = 16 + 4 + 1 + 1;

    private static final BlobServiceImpl impl = new BlobServiceImpl();
    private static LoopbackPair pair;
    private static BlobService blobs;

    @BeforeAll
    static void start() {
        pair = LoopbackPair.serving(impl);
        blobs = pair.proxy(BlobService.class, 30_000);
    }

    @AfterAll
    static void stop() {
        impl.release.countDown();
        pair.close();
    }

    @Test
    void aSlowIteratorOfLargeMessagesHoldsTheByteWindowNotTheMessageWindow() {
        long sent;
        long before = impl.sends.get();
        try (StreamIterator<String> it = Streams.iterate(blobs.blobs(SIZE))) {
            for (int i = 0; i < READ; i++) {
                assertThat(it.next()).hasSize(SIZE);
            }
            sent = settled(() -> impl.sends.get() - before);
        }
        System.out.printf("StreamByteWindowTest: an iterator that stopped after %d messages of 64 KiB: the provider"
                + " sent %d%n", READ, sent);
        assertThat(sent).isGreaterThanOrEqualTo(READ).isLessThanOrEqualTo(READ + MOST_AHEAD);
    }

    @Test
    void aMethodAskingForEverythingHoldsTheByteWindowOfLargeMessages() throws Exception {
        AtomicLong sends = new AtomicLong();
        Flow.Publisher<String> producer = Streams.produce(StreamOptions.builder().bufferMessages(4).build(), sink -> {
            for (int i = 0; i < BlobServiceImpl.MOST; i++) {
                sink.send("x".repeat(SIZE));
                sends.incrementAndGet();
            }
        });
        CompletableFuture<Integer> answer = blobs.readThenStall(producer, READ);
        Await.until("the method read its messages", WAIT, () -> impl.reads.get() > READ);
        long sent = settled(sends::get);
        System.out.printf("StreamByteWindowTest: a method asking for everything that stalled after %d messages of"
                + " 64 KiB: the consumer sent %d%n", READ, sent);
        assertThat(sent).isGreaterThanOrEqualTo(READ).isLessThanOrEqualTo(READ + MOST_AHEAD);
        answer.cancel(true);
    }

    @Test
    void aNewStreamOfLargeMessagesOnAConnectionThatCarriedSmallOnesStartsAtTheOldWindow() {
        try (JupiterClient own = JupiterClient.builder().build()) {
            BlobService mine = own.proxy(BlobService.class).address("127.0.0.1", pair.port())
                    .connections(1).timeoutMillis(30_000).build();
            // The connection's latest messages are small: a size that would give a new stream 1,024 credits.
            try (StreamIterator<String> it = Streams.iterate(mine.blobs(16))) {
                for (int i = 0; i < 100; i++) {
                    assertThat(it.next()).hasSize(16);
                }
            }
            long before = SettledCount.of(impl.sends::get, 0);
            long sent;
            try (StreamIterator<String> it = Streams.iterate(mine.blobs(SIZE))) {
                assertThat(it.next()).hasSize(SIZE);
                sent = SettledCount.of(() -> impl.sends.get() - before, 1);
            }
            System.out.printf("StreamByteWindowTest: a reader of 64 KiB messages that stopped at its first, on a"
                    + " connection that carried small ones: the provider sent %d%n", sent);
            // 32 until the stream's own first message tells the size, the sender's buffer of 4, one send waiting.
            assertThat(sent).isPositive().isLessThanOrEqualTo(32 + 4 + 2);
        }
    }

    @Test
    void readersThatStopTogetherHoldTheConnectionsWindow() throws Exception {
        int streams = 24;
        List<Flow.Subscription> subscriptions = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        try (JupiterClient own = JupiterClient.builder().build()) {
            BlobService mine = own.proxy(BlobService.class).address("127.0.0.1", pair.port())
                    .connections(1).timeoutMillis(30_000).build();
            // The connection learns the messages' size first, as a connection in use has.
            try (StreamIterator<String> it = Streams.iterate(mine.blobs(SIZE))) {
                assertThat(it.next()).hasSize(SIZE);
            }
            long before = SettledCount.of(impl.sends::get, 0);
            for (int i = 0; i < streams; i++) {
                mine.blobs(SIZE).subscribe(new Flow.Subscriber<>() {
                    @Override
                    public void onSubscribe(Flow.Subscription s) {
                        subscriptions.add(s);
                        s.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(String blob) {
                        try {
                            release.await(); // reads one, then nothing
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }

                    @Override
                    public void onError(Throwable error) {
                    }

                    @Override
                    public void onComplete() {
                    }
                });
            }
            long sent = SettledCount.of(() -> impl.sends.get() - before, 1);
            System.out.printf("StreamByteWindowTest: %d readers of 64 KiB messages on one connection, each stopped"
                    + " at its first: the provider sent %d in all%n", streams, sent);
            // 8 MiB of the connection's window, the provider's 4 MiB of buffers, and per stream the message in its
            // stalled reader's hands and one let in alone when less than a message's room was left; each stream's
            // own window alone would let 24 x 16 = 384 go.
            assertThat(sent).isPositive().isLessThanOrEqualTo(128 + 64 + 2 * streams);
        } finally {
            release.countDown();
            subscriptions.forEach(Flow.Subscription::cancel);
        }
    }

    private static long settled(LongSupplier count) {
        return SettledCount.of(count, READ);
    }
}
