package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.testkit.Await;
import io.jupiter.transport.ProtocolHeader;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #39: with every default (the iterator's {@link Streams#DEFAULT_PREFETCH}, the provider's
 * {@link StreamOptions#DEFAULTS}, the byte windows), a reader that stops reading holds a bounded number of bytes,
 * over a real connection on 127.0.0.1. Small messages run the message counts ahead (more than the 32 of the old
 * defaults: what lets one stream keep pace); large ones only what the stream's byte window and the provider's buffer
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

    private static final BlobServiceImpl impl = new BlobServiceImpl();
    private static JupiterServer server;
    private static JupiterClient client;
    private static BlobService blobs;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        server.register(impl);
        server.start();
        client = JupiterClient.builder().build();
        blobs = client.proxy(BlobService.class).address("127.0.0.1", server.localAddress().getPort())
                .connections(1).timeoutMillis(30_000).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
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

    /** {@code count} once it held still for half a second (bounded: the loop ends). */
    private static long settled(LongSupplier count) {
        for (int i = 0; i < 40; i++) {
            long now = count.getAsLong();
            if (Await.holdsFor(Duration.ofMillis(500), () -> count.getAsLong() == now)) {
                return now;
            }
        }
        return count.getAsLong();
    }
}
