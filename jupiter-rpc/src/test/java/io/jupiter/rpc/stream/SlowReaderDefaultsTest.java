package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.testkit.Await;
import io.jupiter.transport.ProtocolHeader;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #39: with every default (the iterator's {@link Streams#DEFAULT_PREFETCH}, the provider's
 * {@link StreamOptions#DEFAULTS} and {@code streamInboundWindow}, the byte windows), a reader that stops reading holds
 * a bounded number of bytes, over a real connection on 127.0.0.1: a consumer reading a server stream, and a provider
 * method reading a client stream. Small messages run the message counts ahead (more than the 32 of the old
 * defaults: what lets one stream keep pace); large ones only what the stream's byte window and the sender's buffer
 * bytes hold, not the counts.
 */
@Timeout(90)
class SlowReaderDefaultsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** A frame's bytes beyond its string's characters: the header and the serializer's few bytes of framing. */
    private static final int OVERHEAD = ProtocolHeader.HEADER_SIZE + 8;
    /** The bytes a stopped reader may hold across both sides: its window, the provider's buffer, two frames more. */
    private static final long WINDOW_AND_BUFFER =
            JupiterSettings.STREAM_WINDOW_BYTES.defaultValue() + StreamOptions.DEFAULT_BUFFER_BYTES;

    /** The provider's window for a consumer's messages, by default. */
    private static final int INBOUND_WINDOW = JupiterSettings.STREAM_INBOUND_WINDOW.defaultValue();

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
        pair.close();
    }

    @Test
    void aStoppedReaderOfSmallMessagesHoldsTheMessageCountsWhichAreFewBytes() {
        int size = 16;
        int read = 3_000;
        long ahead;
        long before = impl.sends.get();
        try (StreamIterator<String> it = Streams.iterate(blobs.blobsWithDefaults(size))) {
            for (int i = 0; i < read; i++) {
                assertThat(it.next()).hasSize(size);
            }
            // The provider's buffer fills whatever else happens: the reader asked for no more.
            Await.until("the provider's buffer fills", WAIT, () -> impl.sends.get() - before
                    >= read + StreamOptions.DEFAULT_BUFFER_MESSAGES);
            ahead = settled(() -> impl.sends.get() - before) - read;
        }
        long bytes = ahead * (size + OVERHEAD);
        System.out.printf("SlowReaderDefaultsTest: an iterator that stopped after %d messages of %d bytes: the"
                + " provider sent %d more (at most %d bytes)%n", read, size, ahead, bytes);
        // The reader's prefetch and the provider's buffer, one send waiting and one message in the reader's hands.
        assertThat(ahead).isGreaterThan(2 * 32 + 2)
                .isLessThanOrEqualTo(Streams.DEFAULT_PREFETCH + StreamOptions.DEFAULT_BUFFER_MESSAGES + 2);
        assertThat(bytes).isLessThanOrEqualTo(WINDOW_AND_BUFFER);
    }

    @Test
    void aStoppedReaderOfLargeMessagesHoldsTheBytesNotTheMessageCounts() {
        int size = 64 * 1024;
        int read = 40;
        long ahead;
        long before = impl.sends.get();
        try (StreamIterator<String> it = Streams.iterate(blobs.blobsWithDefaults(size))) {
            for (int i = 0; i < read; i++) {
                assertThat(it.next()).hasSize(size);
            }
            ahead = settled(() -> impl.sends.get() - before) - read;
        }
        long frame = size + OVERHEAD;
        long bytes = ahead * frame;
        System.out.printf("SlowReaderDefaultsTest: an iterator that stopped after %d messages of 64 KiB: the"
                + " provider sent %d more (at most %d bytes)%n", read, ahead, bytes);
        // 1 MiB of window and 1 MiB of buffer hold 16 each; the counts alone would let 2,048 (128 MiB) go.
        assertThat(ahead).isPositive().isLessThanOrEqualTo(16 + 16 + 2);
        assertThat(bytes).isLessThanOrEqualTo(WINDOW_AND_BUFFER + 2 * frame);
    }

    @Test
    void aProviderMethodThatStopsReadingSmallMessagesHoldsTheMessageCountsWhichAreFewBytes() {
        int size = 16;
        long ahead = consumerAhead(size, 3_000);
        long bytes = ahead * (size + OVERHEAD);
        System.out.printf("SlowReaderDefaultsTest: a provider method that stopped reading a client stream after 3000"
                + " messages of %d bytes: the consumer sent %d more (at most %d bytes)%n", size, ahead, bytes);
        // The method's window and iterator (at least half of it asked for again) and the consumer's full buffer:
        // beyond what the old window of 32 let go, within the counts, and few bytes.
        assertThat(ahead).isGreaterThan(32 + StreamOptions.DEFAULT_BUFFER_MESSAGES + 2)
                .isLessThanOrEqualTo(INBOUND_WINDOW + StreamOptions.DEFAULT_BUFFER_MESSAGES + 2);
        assertThat(bytes).isLessThanOrEqualTo(WINDOW_AND_BUFFER);
    }

    @Test
    void aProviderMethodThatStopsReadingLargeMessagesHoldsTheBytesNotTheMessageCounts() {
        int size = 64 * 1024;
        long ahead = consumerAhead(size, 40);
        long frame = size + OVERHEAD;
        long bytes = ahead * frame;
        System.out.printf("SlowReaderDefaultsTest: a provider method that stopped reading a client stream after 40"
                + " messages of 64 KiB: the consumer sent %d more (at most %d bytes)%n", ahead, bytes);
        // The provider's 1 MiB window and the consumer's 1 MiB buffer hold 16 each; the counts alone (the window
        // and the buffer, 1,024 each) would let 2,048 (128 MiB) go.
        assertThat(ahead).isPositive().isLessThanOrEqualTo(16 + 16 + 2);
        assertThat(bytes).isLessThanOrEqualTo(WINDOW_AND_BUFFER + 2 * frame);
    }

    /**
     * How many messages of {@code size} a consumer's producer with the default options sent beyond the {@code read}
     * a provider method read with the default iterator before it stopped reading.
     */
    private static long consumerAhead(int size, int read) {
        AtomicLong sends = new AtomicLong();
        Flow.Publisher<String> producer = Streams.produce(sink -> {
            for (int i = 0; i < BlobServiceImpl.MOST; i++) {
                sink.send("x".repeat(size));
                sends.incrementAndGet();
            }
        });
        CountDownLatch letGo = new CountDownLatch(1);
        impl.letGo = letGo;
        long before = impl.iterated.get();
        CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> blobs.iterateThenStall(producer,
                read));
        try {
            Await.until("the method read its messages", WAIT, () -> impl.iterated.get() - before >= read);
            return settled(sends::get) - read;
        } finally {
            letGo.countDown();
            assertThat(answer.join()).isEqualTo(read);
        }
    }

    private static long settled(LongSupplier count) {
        return SettledCount.of(count, 0);
    }
}
