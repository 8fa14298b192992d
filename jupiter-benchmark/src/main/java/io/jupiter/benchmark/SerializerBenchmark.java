package io.jupiter.benchmark;

import io.jupiter.serialization.ArgumentTypes;
import io.jupiter.serialization.EnvelopeListener;
import io.jupiter.serialization.Serializer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.serialization.Serializers;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.serialization.wire.ResultWrapper;
import io.jupiter.serialization.wire.ServiceMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Writing and reading the request and response bodies of the benchmark call {@code hello(payload)} with each
 * serializer, straight into and out of a pooled direct buffer (as the RPC path does).
 * Run {@code java -jar jupiter-benchmark/target/jupiter-benchmark.jar SerializerBenchmark -prof gc} for B/op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class SerializerBenchmark {

    @Param({"protostuff", "hessian", "kryo", "java"})
    public String serializer;

    @Param({"small", "1k"})
    public String payload;

    private Serializer chosen;
    private MessageWrapper request;
    private ResultWrapper response;
    private ByteBuf encodedRequest;
    private ByteBuf encodedResponse;
    private final ArgumentTypes helloTypes = ArgumentTypes.of("hello",
            List.<Class<?>[]>of(new Class<?>[] {String.class}));
    private final EnvelopeListener lookup = (app, service, method) -> method.equals("hello") ? helloTypes : null;

    @Setup(Level.Trial)
    public void setUp() {
        chosen = Serializers.get(SerializerType.parse(serializer));
        String value = payload.equals("small") ? "jupiter" : "j".repeat(1024);
        request = new MessageWrapper("benchmark", new ServiceMetadata("test", "service", "1.0.0"), "hello",
                new Object[] {value}, null);
        response = new ResultWrapper(value);
        encodedRequest = PooledByteBufAllocator.DEFAULT.directBuffer();
        chosen.write(encodedRequest, request);
        encodedResponse = PooledByteBufAllocator.DEFAULT.directBuffer();
        chosen.write(encodedResponse, response);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        encodedRequest.release();
        encodedResponse.release();
    }

    @Benchmark
    public int writeRequest() {
        ByteBuf out = PooledByteBufAllocator.DEFAULT.directBuffer(256);
        try {
            chosen.write(out, request);
            return out.readableBytes();
        } finally {
            out.release();
        }
    }

    @Benchmark
    public Object readRequest() {
        ByteBuf in = encodedRequest.duplicate();
        return chosen.read(in, MessageWrapper.class);
    }

    /**
     * The provider's read: the envelope first, a lookup answering {@code hello(String)}'s parameter types, then the
     * argument checked against them (compare with {@link #readRequest}, the whole body with the allow-list only).
     */
    @Benchmark
    public Object readRequestEnvelopeFirst() {
        ByteBuf in = encodedRequest.duplicate();
        return chosen.readRequest(in, lookup);
    }

    @Benchmark
    public int writeResponse() {
        ByteBuf out = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        try {
            chosen.write(out, response);
            return out.readableBytes();
        } finally {
            out.release();
        }
    }

    @Benchmark
    public Object readResponse() {
        ByteBuf in = encodedResponse.duplicate();
        return chosen.read(in, ResultWrapper.class);
    }
}
