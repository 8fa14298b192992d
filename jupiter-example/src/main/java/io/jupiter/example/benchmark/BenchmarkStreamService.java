package io.jupiter.example.benchmark;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The stream benchmark's service (group "test", name "stream"), apart from {@link BenchmarkService}, whose
 * {@code test/service/1.0.0} Jupiter 1.3.1 clients also call.
 */
@ServiceProvider(group = "test", name = "stream")
public interface BenchmarkStreamService {

    /** A server stream of ticks carrying {@code payload}, sent as fast as the reader's demand allows, never ending. */
    Flow.Publisher<StreamTick> ticks(String payload);

    /**
     * A subscription to the service's one topic, to which it publishes a tick carrying {@code payload}
     * {@code publishesPerSecond} times a second while anyone is subscribed (the latest subscriber's rate).
     */
    Flow.Publisher<StreamTick> topic(String payload, int publishesPerSecond);

    /**
     * A client stream: reads every tick the consumer sends, as fast as the stream's flow control lets them come,
     * and answers how many it read once the consumer completes its side.
     */
    CompletableFuture<Long> upload(Flow.Publisher<StreamTick> ticks);

    /**
     * A bidirectional stream: sends every tick the consumer sends back as it reads it, as the flow control of both
     * directions allows, until the consumer completes its side or cancels.
     */
    Flow.Publisher<StreamTick> echo(Flow.Publisher<StreamTick> ticks);
}
