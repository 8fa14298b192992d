package io.jupiter.protocol.http.client;

import com.google.protobuf.StringValue;
import com.sun.management.OperatingSystemMXBean;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.jupiter.protocol.http.ProtoMarshaller;
import io.jupiter.rpc.JupiterClient;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Synchronous unary calls per second to one grpc-java server (direct executor) on 127.0.0.1, from a Jupiter proxy
 * with {@link GrpcClientProtocol} and from grpc-java's own blocking client, in this JVM. Not a test: run by hand
 * (docs/protocols.md gives the command). Arguments: threads, warm-up seconds, measured seconds, and the order of the
 * runs ({@code j} the Jupiter proxy, {@code g} grpc-java's client; default {@code jgjg}, alternating so that each
 * ratio compares runs a few seconds apart on a shared machine).
 */
public final class GrpcConsumerThroughput {

    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private GrpcConsumerThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        String order = args.length > 3 ? args[3] : "jgjg";
        StringValue request = StringValue.of("x".repeat(64));
        MethodDescriptor<StringValue, StringValue> method = MethodDescriptor.<StringValue, StringValue>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(EchoServer.SERVICE, "Echo"))
                .setRequestMarshaller(new ProtoMarshaller<>(StringValue.parser()))
                .setResponseMarshaller(new ProtoMarshaller<>(StringValue.parser())).build();
        // Not EchoServer: it records every call's deadline in a copy-on-write list, which costs each call a copy of
        // all the calls before it and made later runs slower than earlier ones.
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).directExecutor()
                .addService(ServerServiceDefinition.builder(EchoServer.SERVICE).addMethod(method,
                        ServerCalls.asyncUnaryCall((StringValue text, StreamObserver<StringValue> out) -> {
                            out.onNext(StringValue.of("a:" + text.getValue()));
                            out.onCompleted();
                        })).build())
                .build().start();
        try (JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = client.proxy(Echo.class).name(EchoServer.SERVICE)
                    .protocol(GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL).build())
                    .address("127.0.0.1:" + server.getPort()).timeoutMillis(10_000).build();
            ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                    .usePlaintext().build();
            Supplier<StringValue> jupiter = () -> echo.echo(request);
            Supplier<StringValue> grpc = () -> ClientCalls.blockingUnaryCall(channel, method,
                    CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), request);
            try {
                // Both paths compiled before any run counts: the first run would otherwise pay for the JIT alone.
                run(threads, warmUp, jupiter);
                run(threads, warmUp, grpc);
                for (char run : order.toCharArray()) {
                    if (run == 'j') {
                        report("jupiter proxy + GrpcClientProtocol", threads, warmUp, seconds, jupiter);
                    } else {
                        report("grpc-java blocking client", threads, warmUp, seconds, grpc);
                    }
                }
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        } finally {
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private static void run(int threads, int seconds, Supplier<StringValue> call) throws InterruptedException {
        report(null, threads, seconds, 0, call);
    }

    private static void report(String name, int threads, int warmUp, int seconds, Supplier<StringValue> call)
            throws InterruptedException {
        LongAdder done = new LongAdder();
        long[] window = new long[2];
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmUp + seconds);
        Thread[] workers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Thread(() -> {
                while (System.nanoTime() - end < 0) {
                    call.get();
                    done.increment();
                }
            });
            workers[i].start();
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(warmUp));
        window[0] = done.sum();
        long cpuBefore = OS.getProcessCpuTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        window[1] = done.sum();
        long cpu = OS.getProcessCpuTime() - cpuBefore;
        for (Thread worker : workers) {
            worker.join();
        }
        if (name == null) {
            return;
        }
        long calls = window[1] - window[0];
        // CPU per call (this JVM's, server included) depends less on the other builds than calls per second.
        System.out.printf("%-40s threads %d: %,d calls/s, %,d us CPU/call (load average %.1f)%n", name, threads,
                calls / seconds, calls == 0 ? -1 : cpu / 1000 / calls, OS.getSystemLoadAverage());
    }
}
