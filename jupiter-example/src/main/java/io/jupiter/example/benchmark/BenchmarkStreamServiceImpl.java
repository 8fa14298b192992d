package io.jupiter.example.benchmark;

import io.jupiter.rpc.ServiceProviderImpl;
import io.jupiter.rpc.stream.Streams;
import java.util.concurrent.Flow;

/** Sends ticks through the blocking sink, whose {@code send} waits for the reader's credit, until the stream ends. */
@ServiceProviderImpl(version = "1.0.0")
public class BenchmarkStreamServiceImpl implements BenchmarkStreamService {

    @Override
    public Flow.Publisher<StreamTick> ticks(String payload) {
        return Streams.produce(sink -> {
            while (sink.isOpen()) {
                sink.send(new StreamTick(System.nanoTime(), payload));
            }
        });
    }
}
