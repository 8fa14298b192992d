package io.jupiter.rpc.stream;

import io.jupiter.common.LogText;
import io.jupiter.common.Requires;
import io.jupiter.common.config.JupiterSettings;
import io.jupiter.rpc.context.RpcContext;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.rpc.internal.stream.BlockingSubscriber;
import io.jupiter.rpc.internal.stream.DeadlinePublisher;
import io.jupiter.rpc.internal.stream.ProducingPublisher;
import io.jupiter.rpc.internal.stream.ResumeSubscriber;
import java.util.OptionalLong;
import java.util.concurrent.Flow;

/**
 * Entry points of Jupiter's streams. A service interface declares a server stream as a method returning
 * {@link Flow.Publisher}:
 *
 * <pre>
 * &#64;ServiceProvider(group = "market", name = "quotes")
 * public interface QuoteService {
 *     Flow.Publisher&lt;Quote&gt; quotes(String symbol);
 * }
 * </pre>
 *
 * The provider implements it with a blocking producer ({@link #produce}), a {@link Topic}, or any publisher;
 * the consumer's proxy returns a publisher that opens the stream when subscribed to, and {@link #iterate} reads it
 * with plain blocking calls.
 *
 * <p>A method that takes a {@code Flow.Publisher} reads a stream the consumer sends: it answers once (client
 * streaming) or returns a publisher too (bidirectional). The consumer passes {@link #produce} (a sink whose
 * {@code send} waits for the provider's credit) or any publisher; the provider reads it with {@link #iterate} or a
 * subscriber, whose demand becomes the consumer's credit:
 *
 * <pre>
 * long store(String name, Flow.Publisher&lt;Chunk&gt; chunks);                   // client streaming
 * Flow.Publisher&lt;Line&gt; talk(String room, Flow.Publisher&lt;Line&gt; mine);     // bidirectional
 * </pre>
 */
public final class Streams {

    /**
     * Messages a {@link StreamIterator} asks for ahead of what it has read, by default; reading a stream, fewer when
     * its messages are large: never more than the stream's byte window ({@code jupiter.rpc.stream.window.bytes},
     * 1 MiB) holds at their size, so for all but small messages the bytes bind, not this count (1,024 messages of
     * 1 KiB are the window). Credit is still counted in messages on the wire: a provider that earned credit with
     * small messages and then sends large ones may put this many on the way once (docs/streams.md, "Flow control");
     * a reader of an untrusted provider asks for fewer ({@link #iterate(Flow.Publisher, int)}).
     */
    public static final int DEFAULT_PREFETCH = 1024;

    /**
     * Messages of a consumer's stream (client streaming, bidirectional) a provider takes ahead of what its method
     * has read, by default: the credit it grants never puts more than this on the wire or in its buffer for one
     * stream. A server sets its own with {@code JupiterServer.Builder.streamInboundWindow}.
     */
    public static final int INBOUND_WINDOW = JupiterSettings.STREAM_INBOUND_WINDOW.defaultValue();

    private Streams() {
    }

    /**
     * A stream whose messages {@code producer} sends, on a thread of its own (a virtual thread where the JDK has them),
     * with {@link StreamOptions#DEFAULTS}: {@link StreamSink#send} waits while the receiver is
     * {@value StreamOptions#DEFAULT_BUFFER_MESSAGES} messages (or 1 MiB) behind its credit.
     */
    public static <T> Flow.Publisher<T> produce(StreamProducer<T> producer) {
        return produce(StreamOptions.DEFAULTS, producer);
    }

    /** {@link #produce(StreamProducer)} with the buffer and slow-consumer policy of {@code options}. */
    public static <T> Flow.Publisher<T> produce(StreamOptions options, StreamProducer<T> producer) {
        Requires.notNull(options, "options");
        Requires.notNull(producer, "producer");
        return new ProducingPublisher<>(options, producer);
    }

    /**
     * {@code publisher} with {@code deadlines} enforced for each subscriber: a deadline that passes cancels the
     * stream and ends the subscriber with {@code SERVER_TIMEOUT}. On a proxy's stream the deadlines travel to the
     * provider in the open, which ends the stream on its own when they pass there: the whole deadline, the first
     * message's and the idle one on what its producer sends. Given to a stream method as the consumer's messages
     * (client and bidirectional streams), its first-message and idle deadlines bound those messages on the provider
     * in the same way.
     */
    public static <T> Flow.Publisher<T> withDeadlines(Flow.Publisher<T> publisher, StreamDeadlines deadlines) {
        Requires.notNull(publisher, "publisher");
        Requires.notNull(deadlines, "deadlines");
        return new DeadlinePublisher<>(publisher, deadlines);
    }

    /**
     * {@code stream} (a stream method's publisher, from a proxy) opened as a resumption: its open carries
     * {@code lastSeen}, the last sequence number the consumer saw of an earlier stream, and the provider's method
     * reads it with {@link #resumePoint()} to continue after it. A hook: the framework numbers nothing and stores
     * no history; the sequence is the application's, carried in its messages.
     */
    public static <T> Flow.Publisher<T> resumeFrom(long lastSeen, Flow.Publisher<T> stream) {
        Requires.notNull(stream, "stream");
        return subscriber -> stream.subscribe(new ResumeSubscriber<>(subscriber, lastSeen));
    }

    /**
     * In a stream method, while it runs (before it returns its publisher): the last sequence the consumer saw, when
     * it opened the stream with {@link #resumeFrom}; empty for a stream opened afresh (and outside a stream method).
     * Read it in the method and hand it to the producer: a producer's body runs on a thread of its own, later.
     */
    public static OptionalLong resumePoint() {
        String value = RpcContext.attachment(ResumeSubscriber.KEY);
        if (value == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new StreamException(StatusTable.BAD_REQUEST.status(), "the stream's resume point is not a number: "
                    + LogText.of(value));
        }
    }

    /** Subscribes to {@code publisher} and reads it with blocking calls, {@value #DEFAULT_PREFETCH} ahead. */
    public static <T> StreamIterator<T> iterate(Flow.Publisher<T> publisher) {
        return iterate(publisher, DEFAULT_PREFETCH);
    }

    /**
     * Subscribes to {@code publisher} and reads it with blocking calls, asking for up to {@code prefetch} messages
     * ahead of what was read (at least 1).
     */
    public static <T> StreamIterator<T> iterate(Flow.Publisher<T> publisher, int prefetch) {
        Requires.notNull(publisher, "publisher");
        Requires.positive(prefetch, "prefetch");
        BlockingSubscriber<T> subscriber = new BlockingSubscriber<>(prefetch);
        publisher.subscribe(subscriber);
        return subscriber;
    }
}
