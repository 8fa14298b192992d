package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.transport.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #39, the consumer's side of the byte ceiling: a raw provider that earns credit with small messages and then
 * spends it on large ones ({@link RawCreditAbuser}) has its server stream ended {@code BAD_REQUEST} once the stream
 * holds 64 byte windows arrived and unread, whether the consumer reads with the blocking iterator (which holds what
 * it was delivered) or with a subscriber that stopped in {@code onNext}; the connection and its next stream go on.
 * A client window of 16 KiB makes the ceiling 1 MiB (its first grant counts messages at 512 bytes: 32 of them).
 */
@Timeout(60)
class ProviderCreditAbuseTest {

    private static final int WINDOW = 16 * 1024;
    /** Small messages read before the reader stops: the credit asked for ahead of them is what the abuser spends. */
    private static final int SMALL = 2_000;
    /** The most large messages the abuser sends: 2.5 MiB of them, past the 1 MiB ceiling. */
    private static final int LARGE = 40;
    private static final int LARGE_BYTES = 64 * 1024;
    /** Large messages that fit under the ceiling, and the one that crosses it (refused). */
    private static final int WITHIN_CEILING = 64 * WINDOW / LARGE_BYTES + 1;

    @Test
    void anIteratorThatStoppedEndsTheAbusedStreamAtTheByteCeiling() throws Exception {
        try (RawCreditAbuser abuser = new RawCreditAbuser(SMALL, LARGE, LARGE_BYTES);
             JupiterClient client = JupiterClient.builder().streamWindowBytes(WINDOW).build()) {
            BlobService blobs = proxy(client, abuser);
            try (StreamIterator<String> it = Streams.iterate(blobs.blobs(1))) {
                for (int i = 0; i < SMALL; i++) {
                    assertThat(it.next()).isEqualTo("s");
                }
                // The reader stops: what comes now is held in the iterator, arrived and unread.
                assertThat(abuser.abusedStreamCancelled.await(30, TimeUnit.SECONDS))
                        .as("the consumer cancelled the abused stream").isTrue();
                AtomicInteger large = new AtomicInteger();
                assertThatThrownBy(() -> {
                    while (it.hasNext()) {
                        assertThat(it.next()).hasSize(LARGE_BYTES);
                        large.incrementAndGet();
                    }
                }).isInstanceOfSatisfying(StreamException.class, ProviderCreditAbuseTest::isTheCeiling);
                assertThat(large.get()).as("the large messages let in").isLessThan(WITHIN_CEILING);
            }
            assertTheConnectionGoesOn(blobs);
        }
    }

    @Test
    void aSubscriberThatStoppedEndsTheAbusedStreamAtTheByteCeiling() throws Exception {
        try (RawCreditAbuser abuser = new RawCreditAbuser(SMALL, LARGE, LARGE_BYTES);
             JupiterClient client = JupiterClient.builder().streamWindowBytes(WINDOW).build()) {
            BlobService blobs = proxy(client, abuser);
            AtomicInteger read = new AtomicInteger();
            AtomicReference<Throwable> end = new AtomicReference<>();
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch ended = new CountDownLatch(1);
            blobs.blobs(1).subscribe(new Flow.Subscriber<>() {
                @Override
                public void onSubscribe(Flow.Subscription s) {
                    s.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(String item) {
                    if (read.incrementAndGet() > SMALL) { // the first large one: stops reading until released
                        try {
                            release.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }

                @Override
                public void onError(Throwable error) {
                    end.set(error);
                    ended.countDown();
                }

                @Override
                public void onComplete() {
                    ended.countDown();
                }
            });
            try {
                assertThat(abuser.abusedStreamCancelled.await(30, TimeUnit.SECONDS))
                        .as("the consumer cancelled the abused stream").isTrue();
            } finally {
                release.countDown();
            }
            assertThat(ended.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(end.get()).isInstanceOfSatisfying(StreamException.class, ProviderCreditAbuseTest::isTheCeiling);
            assertThat(read.get() - SMALL).as("the large messages let in").isPositive().isLessThan(WITHIN_CEILING);
            assertTheConnectionGoesOn(blobs);
        }
    }

    private static BlobService proxy(JupiterClient client, RawCreditAbuser abuser) {
        return client.proxy(BlobService.class).address("127.0.0.1", abuser.port()).connections(1)
                .timeoutMillis(10_000).build();
    }

    private static void isTheCeiling(StreamException e) {
        assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
        assertThat(e.getMessage()).contains("sent more than 64 byte windows that its reader has not read");
    }

    /** The next stream on the same connection (the abuser serves one) gets its three messages and its end. */
    private static void assertTheConnectionGoesOn(BlobService blobs) {
        List<String> got = new ArrayList<>();
        try (StreamIterator<String> it = Streams.iterate(blobs.blobs(1))) {
            it.forEachRemaining(got::add);
        }
        assertThat(got).containsExactly("s", "s", "s");
    }
}
