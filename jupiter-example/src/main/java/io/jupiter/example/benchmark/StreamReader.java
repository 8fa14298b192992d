package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.StreamListener;
import java.util.concurrent.Flow;

/**
 * Reads one benchmark stream through {@code Flow}: asks for {@value #WINDOW} messages, then for half that again each
 * time half was read (the demand of {@code Streams.iterate}'s default prefetch), and hands every tick's send time to
 * the driver's listener. Closing it cancels the stream.
 */
final class StreamReader implements Flow.Subscriber<StreamTick>, AutoCloseable {

    static final int WINDOW = 32;

    private final StreamListener listener;
    private volatile Flow.Subscription subscription;
    private volatile boolean closed;
    private int unrequested;

    StreamReader(StreamListener listener) {
        this.listener = listener;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        if (closed) {
            subscription.cancel();
        } else {
            subscription.request(WINDOW);
        }
    }

    @Override
    public void onNext(StreamTick tick) {
        listener.onMessage(tick.getSentNanos());
        if (++unrequested == WINDOW / 2) {
            unrequested = 0;
            subscription.request(WINDOW / 2);
        }
    }

    @Override
    public void onError(Throwable error) {
        listener.onEnd(error);
    }

    @Override
    public void onComplete() {
        listener.onEnd(null);
    }

    @Override
    public void close() {
        closed = true;
        Flow.Subscription current = subscription;
        if (current != null) {
            current.cancel();
        }
    }
}
