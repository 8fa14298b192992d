package io.jupiter.protocol.http;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.stream.StreamIterator;
import io.jupiter.rpc.stream.Streams;
import io.jupiter.transport.Status;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

final class TallyImpl implements Tally {

    /** {@link #stall} read its first message. */
    final CountDownLatch stalled = new CountDownLatch(1);
    /** Lets {@link #stall} read on. */
    final CountDownLatch resume = new CountDownLatch(1);
    /** Messages {@link #count} has read. */
    final AtomicLong counted = new AtomicLong();
    /** How {@link #count}'s reading ended: OK at the client's end, else the status its reader threw. */
    final CompletableFuture<Status> countEnded = new CompletableFuture<>();

    @Override
    public Int64Value sum(Flow.Publisher<Int64Value> numbers) {
        long sum = 0;
        try (StreamIterator<Int64Value> it = Streams.iterate(numbers)) {
            while (it.hasNext()) {
                sum += it.next().getValue();
            }
        }
        return Int64Value.of(sum);
    }

    @Override
    public Flow.Publisher<StringValue> echo(Flow.Publisher<StringValue> lines) {
        return Streams.produce(sink -> {
            try (StreamIterator<StringValue> it = Streams.iterate(lines)) {
                while (it.hasNext()) {
                    sink.send(it.next());
                }
            }
        });
    }

    @Override
    public Int64Value stall(Flow.Publisher<StringValue> chunks) {
        long read = 0;
        try (StreamIterator<StringValue> it = Streams.iterate(chunks)) {
            while (it.hasNext()) {
                it.next();
                if (++read == 1) {
                    stalled.countDown();
                    if (!resume.await(60, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("not resumed");
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return Int64Value.of(read);
    }

    @Override
    public Int64Value reject(Flow.Publisher<Int64Value> numbers) {
        try (StreamIterator<Int64Value> it = Streams.iterate(numbers)) {
            throw new IllegalArgumentException("rejected " + it.next().getValue());
        }
    }

    @Override
    public Int64Value count(Flow.Publisher<StringValue> chunks) {
        try (StreamIterator<StringValue> it = Streams.iterate(chunks)) {
            while (it.hasNext()) {
                it.next();
                counted.incrementAndGet();
            }
            countEnded.complete(Status.OK);
        } catch (StreamException e) {
            countEnded.complete(e.status());
            throw e;
        }
        return Int64Value.of(counted.get());
    }
}
