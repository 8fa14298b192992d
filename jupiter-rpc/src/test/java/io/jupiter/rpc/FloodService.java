package io.jupiter.rpc;

import java.util.concurrent.Flow;

/** A service whose streams send as fast as they may, for the tests of a connection's cap on stream memory. */
@ServiceProvider(group = "test", name = "flood")
public interface FloodService {

    /**
     * Up to {@code count} messages of {@code bytes} characters each, under {@code policy} (a {@code SlowConsumerPolicy}
     * name), recorded under {@code tag}.
     */
    Flow.Publisher<String> flood(int tag, String policy, int bytes, int count);
}
