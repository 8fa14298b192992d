package io.jupiter.rpc;

import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.stream.SlowConsumerPolicy;
import io.jupiter.rpc.stream.StreamOptions;
import io.jupiter.rpc.stream.Streams;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** Records, per stream, what its producer sent, dropped and how it stopped. */
public final class FloodServiceImpl implements FloodService {

    final Map<Integer, Run> runs = new ConcurrentHashMap<>();

    @Override
    public Flow.Publisher<String> flood(int tag, String policy, int bytes, int count) {
        Run run = new Run();
        runs.put(tag, run);
        String message = "x".repeat(bytes);
        StreamOptions options = StreamOptions.builder().policy(SlowConsumerPolicy.valueOf(policy)).build();
        return Streams.produce(options, sink -> {
            try {
                for (int i = 0; i < count; i++) {
                    if (sink.send(message)) {
                        run.sent.incrementAndGet();
                    } else {
                        run.dropped.incrementAndGet();
                    }
                }
            } catch (StreamException e) {
                run.end.set(e);
                throw e;
            } finally {
                run.stopped.countDown();
            }
        });
    }

    /** One stream's producer. */
    static final class Run {
        /** Sends that returned {@code true}: sent against credit or buffered. */
        final AtomicLong sent = new AtomicLong();
        /** Sends that returned {@code false}: dropped by a drop policy. */
        final AtomicLong dropped = new AtomicLong();
        final CountDownLatch stopped = new CountDownLatch(1);
        final AtomicReference<StreamException> end = new AtomicReference<>();
    }
}
