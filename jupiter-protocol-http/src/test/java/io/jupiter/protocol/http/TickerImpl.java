package io.jupiter.protocol.http;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.jupiter.rpc.exception.StreamException;
import io.jupiter.rpc.stream.Streams;
import io.jupiter.transport.Status;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

final class TickerImpl implements Ticker {

    static final int FLOOD_MESSAGE_BYTES = 16 * 1024;
    static final int BULK_MESSAGE_BYTES = 256 * 1024;

    /** Messages {@link #flood} has sent (handed to the stream). */
    final AtomicLong flooded = new AtomicLong();
    /** How {@link #flood}'s producer ended: the status its send threw, or OK when it sent everything. */
    final CompletableFuture<Status> floodEnded = new CompletableFuture<>();

    /** Messages {@link #bulk} has sent (handed to the stream). */
    final AtomicLong bulked = new AtomicLong();
    /** How {@link #bulk}'s producer ended. */
    final CompletableFuture<Status> bulkEnded = new CompletableFuture<>();

    @Override
    public Flow.Publisher<Int64Value> count(Int64Value n) {
        return Streams.produce(sink -> {
            for (long i = 1; i <= n.getValue(); i++) {
                sink.send(Int64Value.of(i));
            }
        });
    }

    @Override
    public Flow.Publisher<Int64Value> failAfter(Int64Value n) {
        return Streams.produce(sink -> {
            for (long i = 1; i <= n.getValue(); i++) {
                sink.send(Int64Value.of(i));
            }
            throw new IllegalStateException("failed after " + n.getValue());
        });
    }

    @Override
    public Flow.Publisher<StringValue> flood(Int64Value n) {
        return counted(n.getValue(), FLOOD_MESSAGE_BYTES, flooded, floodEnded);
    }

    @Override
    public Flow.Publisher<StringValue> bulk(Int64Value n) {
        return counted(n.getValue(), BULK_MESSAGE_BYTES, bulked, bulkEnded);
    }

    /** {@code n} messages of {@code bytes} ASCII characters, each counted in {@code sent} once handed to the stream. */
    private static Flow.Publisher<StringValue> counted(long n, int bytes, AtomicLong sent,
                                                       CompletableFuture<Status> ended) {
        StringValue message = StringValue.of("x".repeat(bytes));
        return Streams.produce(sink -> {
            try {
                for (long i = 0; i < n; i++) {
                    sink.send(message);
                    sent.incrementAndGet();
                }
                ended.complete(Status.OK);
            } catch (StreamException e) {
                ended.complete(e.status());
                throw e;
            }
        });
    }
}
