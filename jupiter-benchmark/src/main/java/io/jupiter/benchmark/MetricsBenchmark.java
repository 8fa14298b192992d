package io.jupiter.benchmark;

import io.jupiter.rpc.ServiceKey;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.transport.Status;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the provider records per call with metrics on (request size, response size and processing time, method
 * timer), from 4 threads at once as a provider pool does; {@code enabled=false} is the floor.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
@Threads(4)
public class MetricsBenchmark {

    private static final ServiceKey KEY = new ServiceKey("test", "service", "1.0.0");
    private static final Object METHOD = new Object();

    @Param({"true", "false"})
    public boolean enabled;

    private RpcMetrics metrics;

    @Setup
    public void setUp() {
        metrics = RpcMetrics.create(RpcMetrics.Side.PROVIDER, enabled);
    }

    @Benchmark
    public void providerCall() {
        long received = System.nanoTime();
        metrics.request(75);
        long started = metrics.startNanos();
        metrics.methodDone(METHOD, KEY, "hello", started);
        metrics.response(Status.OK.value(), 11, received);
    }
}
