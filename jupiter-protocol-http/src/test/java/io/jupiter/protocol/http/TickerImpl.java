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

    /** Messages {@link #flood} has sent (handed to the stream). */
    final AtomicLong flooded = new AtomicLong();
    /** How {@link #flood}'s producer ended: the status its send threw, or OK when it sent everything. */
    final CompletableFuture<Status> floodEnded = new CompletableFuture<>();

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
        StringValue message = StringValue.of("x".repeat(FLOOD_MESSAGE_BYTES));
        return Streams.produce(sink -> {
            try {
                for (long i = 0; i < n.getValue(); i++) {
                    sink.send(message);
                    flooded.incrementAndGet();
                }
                floodEnded.complete(Status.OK);
            } catch (StreamException e) {
                floodEnded.complete(e.status());
                throw e;
            }
        });
    }
}
