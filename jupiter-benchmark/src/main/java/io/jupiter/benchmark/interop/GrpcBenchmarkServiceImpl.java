package io.jupiter.benchmark.interop;

import com.google.protobuf.StringValue;
import io.grpc.channelz.v1.ChannelRef;
import io.jupiter.rpc.stream.Streams;
import java.util.concurrent.Flow;

/**
 * Echoes, and sends ticks through the blocking sink (whose {@code send} waits for the stream's credit) until the
 * stream ends, as the Jupiter benchmark's own stream service does, with the default stream buffer.
 */
public final class GrpcBenchmarkServiceImpl implements GrpcBenchmarkService {

    @Override
    public StringValue hello(StringValue payload) {
        return payload;
    }

    @Override
    public Flow.Publisher<ChannelRef> ticks(StringValue payload) {
        String text = payload.getValue();
        return Streams.produce(sink -> {
            while (sink.isOpen()) {
                sink.send(ChannelRef.newBuilder().setChannelId(System.nanoTime()).setName(text).build());
            }
        });
    }
}
