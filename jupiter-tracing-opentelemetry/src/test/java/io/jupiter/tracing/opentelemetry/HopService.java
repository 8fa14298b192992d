package io.jupiter.tracing.opentelemetry;

import io.jupiter.rpc.ServiceProvider;
import io.jupiter.rpc.stream.Streams;
import io.opentelemetry.api.trace.Span;
import java.util.concurrent.Flow;

/** Calls itself {@code remaining} more times; each level reports the span current in its method. */
@ServiceProvider(group = "trace", name = "hop")
public interface HopService {

    /** The span ids current in the method at this level and each level below, comma separated. */
    String hop(int remaining);

    String fail(String message);

    /** {@code n}, {@code n - 1}, ... 1 as a server stream. */
    Flow.Publisher<Integer> countdown(int n);

    final class Impl implements HopService {
        volatile HopService downstream;

        @Override
        public String hop(int remaining) {
            String here = Span.current().getSpanContext().getSpanId();
            return remaining == 0 ? here : here + ',' + downstream.hop(remaining - 1);
        }

        @Override
        public String fail(String message) {
            throw new IllegalStateException(message);
        }

        @Override
        public Flow.Publisher<Integer> countdown(int n) {
            return Streams.produce(sink -> {
                for (int i = n; i > 0; i--) {
                    sink.send(i);
                }
            });
        }
    }
}
