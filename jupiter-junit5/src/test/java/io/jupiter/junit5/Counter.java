package io.jupiter.junit5;

import io.jupiter.rpc.ServiceProvider;
import io.jupiter.rpc.stream.Streams;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;

/** A service with a server stream, for the extension's stream tests. */
@ServiceProvider(group = "junit", name = "counter")
public interface Counter {

    /** 0, 1, ..., n - 1, then completes. */
    Flow.Publisher<Integer> upTo(int n);

    /** A stream written by a producer running on the provider, counted down on {@link Impl#producersEnded}. */
    final class Impl implements Counter {

        /** Counted down each time a producer of {@link #upTo} returns or fails, whatever ended its stream. */
        volatile CountDownLatch producersEnded = new CountDownLatch(1);

        @Override
        public Flow.Publisher<Integer> upTo(int n) {
            CountDownLatch ended = producersEnded;
            return Streams.produce(sink -> {
                try {
                    for (int i = 0; i < n; i++) {
                        sink.send(i);
                    }
                } finally {
                    ended.countDown();
                }
            });
        }
    }
}
