package io.jupiter.rpc.internal.stream;

import io.jupiter.rpc.stream.StreamDeadlines;
import java.util.concurrent.Flow;

/**
 * A publisher whose every subscriber is held to {@link StreamDeadlines} (a {@link DeadlineSubscriber} in between).
 * Named, so that a stream call given it as the consumer's messages can send its deadlines to the provider.
 */
public final class DeadlinePublisher<T> implements Flow.Publisher<T> {

    private final Flow.Publisher<T> publisher;
    private final StreamDeadlines deadlines;

    public DeadlinePublisher(Flow.Publisher<T> publisher, StreamDeadlines deadlines) {
        this.publisher = publisher;
        this.deadlines = deadlines;
    }

    public StreamDeadlines deadlines() {
        return deadlines;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        publisher.subscribe(new DeadlineSubscriber<>(subscriber, deadlines));
    }
}
