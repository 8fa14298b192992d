package io.jupiter.rpc.stream;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/** A service whose methods take the consumer's stream: client streaming and bidirectional, for the stream tests. */
@ServiceProvider(group = "test", name = "intake")
public interface IntakeService {

    /** Client streaming, blocking: the sum of the numbers, read with an iterator. */
    long sum(Flow.Publisher<Long> numbers);

    /** Client streaming, Flow: the items joined with commas, read by a subscriber that asks for 4 at a time. */
    CompletableFuture<String> join(Flow.Publisher<String> items);

    /**
     * Client streaming, Flow: asks for exactly {@code read} messages and no more, and answers how many it got once
     * the stream ends (it ends only by a cancel, a deadline or a lost connection).
     */
    CompletableFuture<Integer> stall(Flow.Publisher<Long> numbers, int read);

    /** Client streaming: counts the messages, asking for all of them at once but taking {@code pauseMillis} each. */
    CompletableFuture<Long> slowCount(Flow.Publisher<Long> numbers, int pauseMillis);

    /** Client streaming: reads {@code n} items, then stops reading (the consumer must stop) and answers them. */
    String firstOf(Flow.Publisher<String> items, int n);

    /** Bidirectional, blocking: each word back in upper case, read with an iterator, sent with a sink. */
    Flow.Publisher<String> shout(Flow.Publisher<String> words);

    /** Bidirectional, Flow: each number doubled by a processor that passes the reader's demand through. */
    Flow.Publisher<Long> doubled(Flow.Publisher<Long> numbers);

    /** Bidirectional: reads {@code read} numbers, then stops reading, then sends {@code send} numbers. */
    Flow.Publisher<Long> halfClose(Flow.Publisher<Long> numbers, int read, int send);

    /**
     * Bidirectional: asks for exactly {@code read} of the consumer's numbers, and sends 0, 1, 2, ... with a buffer
     * of 4 under {@code WAIT} until the stream ends.
     */
    Flow.Publisher<Long> both(Flow.Publisher<Long> numbers, int read);

    /** A plain call beside the streams. */
    String hello(String name);
}
