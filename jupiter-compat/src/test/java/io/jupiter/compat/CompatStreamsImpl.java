package io.jupiter.compat;

import io.jupiter.rpc.ServiceProviderImpl;
import io.jupiter.rpc.stream.Streams;
import java.util.concurrent.Flow;

/** {@link CompatStreams}, counting. */
@ServiceProviderImpl
public class CompatStreamsImpl implements CompatStreams {

    @Override
    public Flow.Publisher<Long> count(int n) {
        return Streams.produce(sink -> {
            for (long i = 0; i < n; i++) {
                sink.send(i);
            }
        });
    }
}
