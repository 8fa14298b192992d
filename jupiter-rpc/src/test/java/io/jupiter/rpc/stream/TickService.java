package io.jupiter.rpc.stream;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.Flow;

/** A service with server streams, for the stream tests. */
@ServiceProvider(group = "test", name = "ticks")
public interface TickService {

    /** 0, 1, ..., n - 1, then completes. */
    Flow.Publisher<Long> count(int n);

    /**
     * 0, 1, 2, ... until the stream ends, sent under {@code policy} (a {@link SlowConsumerPolicy} name) with a buffer
     * of {@code buffer} messages.
     */
    Flow.Publisher<Long> endless(String policy, int buffer);

    /** {@code n} messages from a publisher of the JDK's own, bridged by credit. */
    Flow.Publisher<Integer> submitted(int n);

    /** Sends {@code before} messages, then throws. */
    Flow.Publisher<Long> failing(int before);

    /**
     * The quotes topic, subscribed under {@code policy} (a {@link SlowConsumerPolicy} name) with a buffer of
     * {@code buffer} messages.
     */
    Flow.Publisher<String> quotes(String policy, int buffer);

    /** {@code n} messages, {@code pauseMillis} apart (and before the first). */
    Flow.Publisher<Long> paced(int n, int pauseMillis);

    /** A plain call beside the streams. */
    String hello(String name);
}
