package io.jupiter.protocol.http;

import io.jupiter.rpc.stream.Streams;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

final class NumbersImpl implements Numbers {

    /** Strings {@link #text} has sent (handed to the stream). */
    final AtomicLong texts = new AtomicLong();

    @Override
    public Flow.Publisher<Long> upTo(long n) {
        return Streams.produce(sink -> {
            for (long i = 1; i <= n; i++) {
                sink.send(i);
            }
        });
    }

    @Override
    public Flow.Publisher<Long> failAfter(long n) {
        return Streams.produce(sink -> {
            for (long i = 1; i <= n; i++) {
                sink.send(i);
            }
            throw new IllegalStateException("failed after " + n);
        });
    }

    @Override
    public Flow.Publisher<String> text(int n, int size) {
        String text = "t".repeat(size);
        return Streams.produce(sink -> {
            for (int i = 0; i < n; i++) {
                sink.send(text);
                texts.incrementAndGet();
            }
        });
    }

    @Override
    public Flow.Publisher<String> repeat(String text, int n) {
        return Streams.produce(sink -> {
            for (int i = 0; i < n; i++) {
                sink.send(text);
            }
        });
    }
}
