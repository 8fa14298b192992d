package io.jupiter.rpc.stream;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.Flow;

/** A feed whose messages are their own sequence numbers, resumable, for the resumption hook's tests. */
@ServiceProvider(group = "test", name = "feed")
public interface FeedService {

    /** 0, 1, 2, ... (at most 100,000), or, when the stream is resumed, the numbers after the last one seen. */
    Flow.Publisher<Long> events();

    /** Client streaming, blocking: the sum of the numbers, read with an iterator; how it ended is recorded. */
    long total(Flow.Publisher<Long> numbers);
}
