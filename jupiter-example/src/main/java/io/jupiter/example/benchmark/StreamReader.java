package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.StreamListener;
import io.jupiter.rpc.stream.Streams;
import java.util.concurrent.Flow;

/**
 * Reads one benchmark stream through {@code Flow}: asks for {@link #WINDOW} messages, then for half that again each
 * time half was read (the demand of {@code Streams.iterate}, whose default prefetch is the default window), and
 * hands every tick's send time to the driver's listener. Closing it cancels the stream.
 */
final class StreamReader implements Flow.Subscriber<StreamTick>, AutoCloseable {

    /**
     * System property: the messages a stream may have in flight, the reader's window and the provider's stream
     * buffer alike (at least 2); unset, {@code Streams.DEFAULT_PREFETCH} (1,024), which is also the default stream
     * buffer ({@code StreamOptions.DEFAULT_BUFFER_MESSAGES}).
     */
    static final String WINDOW_PROPERTY = "jupiter.benchmark.stream.window";
    static final int WINDOW = Math.max(2, Integer.getInteger(WINDOW_PROPERTY, Streams.DEFAULT_PREFETCH));

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
