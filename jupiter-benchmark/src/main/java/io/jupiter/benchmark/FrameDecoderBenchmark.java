package io.jupiter.benchmark;

import io.jupiter.transport.Frame;
import io.jupiter.transport.Frames;
import io.jupiter.transport.ProtocolHeader;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.netty.internal.FrameDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The IO thread's share of a request: cutting frames out of a receive buffer holding {@value #FRAMES} coalesced
 * 91-byte frames (the size of 1.3.1's benchmark request), per frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class FrameDecoderBenchmark {

    static final int FRAMES = 64;

    private EmbeddedChannel channel;
    private ByteBuf batch;

    @Setup(Level.Trial)
    public void setUp() {
        channel = new EmbeddedChannel(new FrameDecoder(TransportConfig.defaults()), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ((Frame) msg).release();
            }
        });
        batch = PooledByteBufAllocator.DEFAULT.directBuffer(FRAMES * 91);
        for (int i = 0; i < FRAMES; i++) {
            ByteBuf frame = Frames.newFrame(PooledByteBufAllocator.DEFAULT, 75);
            frame.writeZero(75);
            Frames.fillHeader(frame, ProtocolHeader.toSign(1, ProtocolHeader.REQUEST), (byte) 0, i);
            batch.writeBytes(frame);
            frame.release();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        batch.release();
        channel.finishAndReleaseAll();
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public void decode() {
        channel.writeInbound(batch.retainedDuplicate());
    }
}
