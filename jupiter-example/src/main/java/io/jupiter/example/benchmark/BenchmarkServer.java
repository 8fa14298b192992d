package io.jupiter.example.benchmark;

import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.TransportConfig;
import java.net.InetSocketAddress;
import io.jupiter.example.Args;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/** {@code benchmark-server}: serves {@link BenchmarkService} until the process is stopped. */
public final class BenchmarkServer {

    private BenchmarkServer() {
    }

    public static int run(String[] argv) throws InterruptedException {
        Args args = new Args(argv, 1, Set.of("port", "host", "provider-threads", "io-threads", "registry"));
        int port = args.getInt("port", 18099, 0, 65535);
        String host = args.get("host", "0.0.0.0");
        int cores = Runtime.getRuntime().availableProcessors();
        JupiterServer.Builder builder = JupiterServer.builder().host(host).port(port)
                .providerThreads(args.getInt("provider-threads", Math.max(4, cores * 2), 0, 4096))
                .serializers(SerializerType.values())
                .transportConfig(TransportConfig.builder().threadNamePrefix("jupiter-acceptor").writerIdleMillis(0)
                        .ioThreads(args.getInt("io-threads", cores, 1, 256)).build());
        String registry = args.get("registry", null);
        if (registry != null) {
            builder.registry(registry);
        }
        JupiterServer server = builder.build();
        server.register(new BenchmarkServiceImpl());
        InetSocketAddress bound = server.start();
        System.out.println("benchmark-server listening on " + bound + " (service test/service/1.0.0, "
                + cores + " cores)" + (registry != null ? ", published to " + registry : ""));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // Leave the registry first and finish the calls in flight, so consumers see no failure.
            server.shutdownGracefully(10_000);
            stopped.countDown();
        }, "benchmark-server-shutdown"));
        stopped.await();
        return 0;
    }
}
