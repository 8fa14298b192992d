package io.jupiter.tracing.opentelemetry;

import io.jupiter.rpc.ServiceProvider;
import io.opentelemetry.api.trace.Span;

/** Calls itself {@code remaining} more times; each level reports the span current in its method. */
@ServiceProvider(group = "trace", name = "hop")
public interface HopService {

    /** The span ids current in the method at this level and each level below, comma separated. */
    String hop(int remaining);

    String fail(String message);

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
    }
}
