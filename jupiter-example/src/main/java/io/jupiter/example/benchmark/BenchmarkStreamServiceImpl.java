package io.jupiter.example.benchmark;

import io.jupiter.rpc.ServiceProviderImpl;
import io.jupiter.rpc.stream.StreamIterator;
import io.jupiter.rpc.stream.StreamOptions;
import io.jupiter.rpc.stream.Streams;
import io.jupiter.rpc.stream.Topic;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Sends ticks through the blocking sink, whose {@code send} waits for the reader's credit, until the stream ends
 * (with a buffer of the benchmark's window, {@link StreamReader#WINDOW}: unless set, the
 * defaults' 1,024, {@code Streams.DEFAULT_PREFETCH} and {@code StreamOptions.DEFAULT_BUFFER_MESSAGES});
 * publishes ticks to one topic, from a {@link TopicPublisher} that runs while the topic has subscribers; counts
 * the ticks of a client stream with the blocking iterator (the default window, {@code streamInboundWindow}); and
 * echoes a bidirectional stream's ticks from that iterator into the blocking sink.
 */
@ServiceProviderImpl(version = "1.0.0")
public class BenchmarkStreamServiceImpl implements BenchmarkStreamService {

    private final Topic<StreamTick> topic = new Topic<>();
    private final TopicPublisher publisher = new TopicPublisher(topic);
    private final StreamOptions options = StreamOptions.builder().bufferMessages(StreamReader.WINDOW).build();

    @Override
    public Flow.Publisher<StreamTick> ticks(String payload) {
        return Streams.produce(options, sink -> {
            while (sink.isOpen()) {
                sink.send(new StreamTick(System.nanoTime(), payload));
            }
        });
    }

    @Override
    public Flow.Publisher<StreamTick> topic(String payload, int publishesPerSecond) {
        publisher.ensureRunning(payload, publishesPerSecond);
        return topic.subscriber();
    }

    @Override
    public CompletableFuture<Long> upload(Flow.Publisher<StreamTick> ticks) {
        long read = 0;
        try (StreamIterator<StreamTick> it = Streams.iterate(ticks)) {
            while (it.hasNext()) {
                it.next();
                read++;
            }
        }
        return CompletableFuture.completedFuture(read);
    }

    @Override
    public Flow.Publisher<StreamTick> echo(Flow.Publisher<StreamTick> ticks) {
        return Streams.produce(options, sink -> {
            try (StreamIterator<StreamTick> it = Streams.iterate(ticks)) {
                while (it.hasNext()) {
                    sink.send(it.next());
                }
            }
        });
    }
}
