package io.jupiter.rpc.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.transport.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #28, deadlines per stream on the reader's side: until the first message, between messages, for the whole
 * stream; a deadline that passes ends the reader with {@code SERVER_TIMEOUT} and cancels the provider's producer.
 */
@Timeout(60)
class StreamDeadlinesTest {

    private static final TickServiceImpl impl = new TickServiceImpl();
    private static LoopbackPair pair;
    private static TickService ticks;

    @BeforeAll
    static void start() {
        pair = LoopbackPair.serving(impl);
        ticks = pair.proxy(TickService.class, 10_000);
    }

    @AfterAll
    static void stop() {
        pair.close();
    }

    private static List<Long> readAll(StreamIterator<Long> it, List<Long> got) {
        try (it) {
            it.forEachRemaining(got::add);
        }
        return got;
    }

    @Test
    void aFirstMessageTooLateEndsTheStreamAndStopsTheProducer() throws InterruptedException {
        StreamDeadlines deadlines = StreamDeadlines.builder().firstMessage(Duration.ofMillis(200)).build();
        List<Long> got = new ArrayList<>();
        long started = System.nanoTime();
        assertThatThrownBy(() -> readAll(Streams.iterate(Streams.withDeadlines(ticks.paced(3, 5_000), deadlines)),
                got)).isInstanceOfSatisfying(StreamException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT);
                    // The reader's own deadline, or the provider's (it knows it too): whichever fires first.
                    assertThat(e.getMessage()).containsAnyOf("the first message did not come within 200 ms",
                            "first-message deadline passed: the provider's producer sent nothing within 200 ms");
                });
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
        assertThat(got).isEmpty();
        TickServiceImpl.Run run = impl.latest.get();
        assertThat(run.awaitStopped()).as("the producer was stopped by the cancel").isTrue();
        assertThat(run.sends.get()).isZero();
    }

    @Test
    void theIdleDeadlineIsReArmedByEachMessage() {
        // 5 messages 100 ms apart: each comes well within the 2 s idle deadline, though all take longer than 400 ms.
        StreamDeadlines deadlines = StreamDeadlines.builder().idle(Duration.ofSeconds(2)).build();
        List<Long> got = readAll(Streams.iterate(Streams.withDeadlines(ticks.paced(5, 100), deadlines)),
                new ArrayList<>());
        assertThat(got).containsExactly(0L, 1L, 2L, 3L, 4L);

        StreamDeadlines tight = StreamDeadlines.builder().idle(Duration.ofMillis(300)).build();
        List<Long> some = new ArrayList<>();
        assertThatThrownBy(() -> readAll(Streams.iterate(Streams.withDeadlines(ticks.paced(3, 3_000), tight)),
                some)).isInstanceOfSatisfying(StreamException.class,
                        e -> assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT));
    }

    @Test
    void theWholeStreamDeadlineCutsALongStream() {
        StreamDeadlines deadlines = StreamDeadlines.builder().whole(Duration.ofMillis(500)).build();
        List<Long> got = new ArrayList<>();
        assertThatThrownBy(() -> readAll(Streams.iterate(Streams.withDeadlines(ticks.paced(100, 100), deadlines)),
                got)).isInstanceOfSatisfying(StreamException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.SERVER_TIMEOUT);
                    // The reader's own deadline, or the provider's (it was sent in the open): whichever fires first.
                    assertThat(e.getMessage()).containsAnyOf("the whole stream", "the stream's deadline passed");
                });
        assertThat(got.size()).isBetween(0, 10);
    }
}
