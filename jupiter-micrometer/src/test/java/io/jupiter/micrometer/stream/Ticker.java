package io.jupiter.micrometer.stream;

import io.jupiter.rpc.ServiceProvider;
import io.jupiter.rpc.stream.SlowConsumerPolicy;
import io.jupiter.rpc.stream.StreamIterator;
import io.jupiter.rpc.stream.StreamOptions;
import io.jupiter.rpc.stream.Streams;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;

/** Stream methods of every shape the stream observability tests need. */
@ServiceProvider(group = "test", name = "ticker")
public interface Ticker {

    /** {@code count} messages of {@code size} characters, then the end. */
    Flow.Publisher<String> ticks(int count, int size);

    /** Each of the consumer's lines back, then the end once the consumer's end came. */
    Flow.Publisher<String> echo(Flow.Publisher<String> lines);

    /** A message every few milliseconds until cancelled. */
    Flow.Publisher<String> forever();

    /** {@code count} numbers as fast as it can, dropping the oldest of a buffer of 4 when the reader lags. */
    Flow.Publisher<Integer> latest(int count);

    final class Impl implements Ticker {

        /** Counted down when {@link #latest}'s producer sent its last number. */
        final CountDownLatch latestSent = new CountDownLatch(1);

        @Override
        public Flow.Publisher<String> ticks(int count, int size) {
            return Streams.produce(sink -> {
                for (int i = 0; i < count; i++) {
                    sink.send("x".repeat(size));
                }
            });
        }

        @Override
        public Flow.Publisher<String> echo(Flow.Publisher<String> lines) {
            return Streams.produce(sink -> {
                try (StreamIterator<String> it = Streams.iterate(lines)) {
                    while (it.hasNext()) {
                        sink.send(it.next());
                    }
                }
            });
        }

        @Override
        public Flow.Publisher<String> forever() {
            return Streams.produce(sink -> {
                long i = 0;
                while (sink.isOpen()) {
                    sink.send("tick " + i++);
                    Thread.sleep(5);
                }
            });
        }

        @Override
        public Flow.Publisher<Integer> latest(int count) {
            StreamOptions options = StreamOptions.builder().policy(SlowConsumerPolicy.DROP_OLDEST).bufferMessages(4)
                    .build();
            return Streams.produce(options, sink -> {
                for (int i = 0; i < count; i++) {
                    sink.send(i);
                }
                latestSent.countDown();
            });
        }
    }
}
