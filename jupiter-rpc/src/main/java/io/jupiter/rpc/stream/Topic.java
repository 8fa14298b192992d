package io.jupiter.rpc.stream;

import io.jupiter.common.Requires;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.stream.OutboundStream;
import io.jupiter.rpc.internal.stream.StreamSource;
import io.jupiter.rpc.internal.stream.TopicFanOut;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;

/**
 * A provider-side broadcast: every message {@link #publish published} goes to every stream subscribed at the time,
 * serialized once per serializer and written to each stream from one shared, reference-counted buffer. Each
 * subscriber has its own buffer and {@link SlowConsumerPolicy}; under {@link SlowConsumerPolicy#WAIT}
 * {@code publish} waits for the slowest such subscriber, so nothing is dropped.
 *
 * <pre>
 * private final Topic&lt;Quote&gt; quotes = new Topic&lt;&gt;();
 *
 * public Flow.Publisher&lt;Quote&gt; quotes() {              // a stream method of the service
 *     return quotes.subscriber(StreamOptions.builder().policy(SlowConsumerPolicy.DROP_OLDEST).build());
 * }
 *
 * quotes.publish(new Quote("JUP", 42));                  // from any thread
 * </pre>
 *
 * @param <T> the message type
 */
public final class Topic<T> implements AutoCloseable {

    private final TopicFanOut fanOut = new TopicFanOut();

    /**
     * A publisher to return from a stream method: the stream it opens joins this topic until it ends. Served only
     * over a stream: subscribed to in process, it signals an error.
     */
    public Flow.Publisher<T> subscriber(StreamOptions options) {
        Requires.notNull(options, "options");
        return new Subscription<>(fanOut, options);
    }

    /** {@link #subscriber(StreamOptions)} with {@link StreamOptions#DEFAULTS} (wait, 1,024 messages or 1 MiB). */
    public Flow.Publisher<T> subscriber() {
        return subscriber(StreamOptions.DEFAULTS);
    }

    /**
     * Sends {@code message} to every subscribed stream.
     *
     * @return the streams that took it (sent, or buffered); the others dropped it or are over
     * @throws InterruptedException if interrupted while a {@link SlowConsumerPolicy#WAIT} subscriber had no room
     */
    public int publish(T message) throws InterruptedException {
        Requires.notNull(message, "message");
        return fanOut.publish(message);
    }

    /** Streams subscribed now. */
    public int subscriberCount() {
        return fanOut.size();
    }

    /** Completes every subscribed stream (each after its buffered messages); later subscribers join a new round. */
    @Override
    public void close() {
        fanOut.completeAll();
    }

    /** Serializations done so far: one per message and serializer in use, however many subscribers. */
    long serializations() {
        return fanOut.serializations();
    }

    private record Subscription<T>(TopicFanOut fanOut, StreamOptions options)
            implements Flow.Publisher<T>, StreamSource {

        @Override
        public void start(OutboundStream stream, Executor producers) {
            fanOut.add(stream);
        }

        @Override
        public void subscribe(Flow.Subscriber<? super T> subscriber) {
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            subscriber.onError(new StreamException(StatusTable.BAD_REQUEST.status(),
                    "a topic's subscriber is served only over a stream"));
        }
    }
}
