package io.jupiter.protocol.http.client;

import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.jupiter.protocol.http.ProtoMarshaller;
import io.jupiter.rpc.JupiterClient;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Synchronous unary calls per second to one grpc-java server (direct executor) on 127.0.0.1, from a Jupiter proxy
 * with {@link GrpcClientProtocol} and from grpc-java's own blocking client, one after the other in this JVM. Not a
 * test: run by hand (docs/protocols.md gives the command). Arguments: threads, warm-up seconds, measured seconds.
 */
public final class GrpcConsumerThroughput {

    private GrpcConsumerThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        StringValue request = StringValue.of("x".repeat(64));
        try (EchoServer server = new EchoServer("a")) {
            try (JupiterClient client = JupiterClient.builder().build()) {
                Echo echo = client.proxy(Echo.class).name(EchoServer.SERVICE)
                        .protocol(GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL).build())
                        .address(server.address()).timeoutMillis(10_000).build();
                report("jupiter proxy + GrpcClientProtocol", threads, warmUp, seconds, () -> echo.echo(request));
            }
            MethodDescriptor<StringValue, StringValue> method = MethodDescriptor.<StringValue, StringValue>newBuilder()
                    .setType(MethodDescriptor.MethodType.UNARY)
                    .setFullMethodName(MethodDescriptor.generateFullMethodName(EchoServer.SERVICE, "Echo"))
                    .setRequestMarshaller(new ProtoMarshaller<>(StringValue.parser()))
                    .setResponseMarshaller(new ProtoMarshaller<>(StringValue.parser())).build();
            String[] hostPort = server.address().split(":");
            ManagedChannel channel = NettyChannelBuilder.forAddress(hostPort[0], Integer.parseInt(hostPort[1]))
                    .usePlaintext().build();
            try {
                report("grpc-java blocking client", threads, warmUp, seconds, () -> ClientCalls.blockingUnaryCall(
                        channel, method, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), request));
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
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
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        window[1] = done.sum();
        for (Thread worker : workers) {
            worker.join();
        }
        System.out.printf("%-40s threads %d: %,d calls/s%n", name, threads, (window[1] - window[0]) / seconds);
    }
}
