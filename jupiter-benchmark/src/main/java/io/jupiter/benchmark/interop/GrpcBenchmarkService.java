package io.jupiter.benchmark.interop;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.grpc.channelz.v1.ChannelRef;
import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.Flow;

/**
 * The gRPC benchmark's service as a Jupiter provider serves it: the methods gRPC-java's own server answers in the
 * target {@code grpc-direct} ({@code jupiter-benchmark/grpc}'s {@code BenchmarkMethods}), with the same messages,
 * under the same gRPC path {@code /jupiter.benchmark.Benchmark/{method}}. Its messages are generated protobuf
 * classes, so every method is callable over gRPC.
 */
@ServiceProvider(name = "jupiter.benchmark.Benchmark")
public interface GrpcBenchmarkService {

    /** Answers its argument, as the original benchmark's {@code hello}. */
    StringValue hello(StringValue payload);

    /**
     * A server stream of ticks, sent as fast as the stream's flow control allows, never ending: each carries the
     * server's {@link System#nanoTime()} at send (field 1, {@code channel_id}) and the payload (field 2,
     * {@code name}). {@code ChannelRef} of grpc-services is borrowed for its shape ({@code int64}, {@code string}):
     * the build has no protobuf compiler to generate a message of our own.
     */
    Flow.Publisher<ChannelRef> ticks(StringValue payload);

    /** A client stream of ticks, read as fast as they come; answers how many it read once the client completes. */
    Int64Value upload(Flow.Publisher<ChannelRef> ticks);

    /** A bidirectional stream: sends each tick back as it reads it, until the client completes or cancels. */
    Flow.Publisher<ChannelRef> echo(Flow.Publisher<ChannelRef> ticks);
}
