package io.jupiter.benchmark.interop;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.grpc.channelz.v1.ChannelRef;
import io.jupiter.rpc.stream.StreamIterator;
import io.jupiter.rpc.stream.Streams;
import java.util.concurrent.Flow;

/**
 * Echoes, and sends ticks through the blocking sink (whose {@code send} waits for the stream's credit) until the
 * stream ends, as the Jupiter benchmark's own stream service does, with the default stream buffer; counts a client
 * stream's ticks with the blocking iterator, and echoes a bidirectional stream's from that iterator into the sink.
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

    @Override
    public Int64Value upload(Flow.Publisher<ChannelRef> ticks) {
        long read = 0;
        try (StreamIterator<ChannelRef> it = Streams.iterate(ticks)) {
            while (it.hasNext()) {
                it.next();
                read++;
            }
        }
        return Int64Value.of(read);
    }

    @Override
    public Flow.Publisher<ChannelRef> echo(Flow.Publisher<ChannelRef> ticks) {
        return Streams.produce(sink -> {
            try (StreamIterator<ChannelRef> it = Streams.iterate(ticks)) {
                while (it.hasNext()) {
                    sink.send(it.next());
                }
            }
        });
    }
}
