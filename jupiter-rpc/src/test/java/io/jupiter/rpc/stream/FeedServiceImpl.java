package io.jupiter.rpc.stream;

import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/** Continues after the resume point the consumer sent; records every open's resume point. */
public final class FeedServiceImpl implements FeedService {

    /** The resume point of each open, in order: empty for a fresh open. */
    final List<OptionalLong> opens = new CopyOnWriteArrayList<>();
    /** How {@link #total}'s iterator ended: the exception its {@code hasNext} threw. */
    final CompletableFuture<RuntimeException> totalEnd = new CompletableFuture<>();
    /** Numbers {@link #total} read. */
    final AtomicLong totalReads = new AtomicLong();

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

    @Override
    public long total(Flow.Publisher<Long> numbers) {
        long sum = 0;
        try (StreamIterator<Long> it = Streams.iterate(numbers, 4)) {
            while (it.hasNext()) {
                sum += it.next();
                totalReads.incrementAndGet();
            }
        } catch (RuntimeException e) {
            totalEnd.complete(e);
            throw e;
        }
        return sum;
    }
}
