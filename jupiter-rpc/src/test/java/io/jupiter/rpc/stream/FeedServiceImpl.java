package io.jupiter.rpc.stream;

import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;

/** Continues after the resume point the consumer sent; records every open's resume point. */
public final class FeedServiceImpl implements FeedService {

    /** The resume point of each open, in order: empty for a fresh open. */
    final List<OptionalLong> opens = new CopyOnWriteArrayList<>();

    @Override
    public Flow.Publisher<Long> events() {
        OptionalLong from = Streams.resumePoint(); // read while the method runs: the producer runs later
        opens.add(from);
        long first = from.isPresent() ? from.getAsLong() + 1 : 0;
        return Streams.produce(sink -> {
            for (long i = first; i < 100_000; i++) {
                sink.send(i);
            }
        });
    }
}
