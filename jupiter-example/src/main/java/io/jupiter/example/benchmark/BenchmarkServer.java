package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.example.MonitorOption;
import io.jupiter.example.TlsOption;
import io.jupiter.example.benchmark.user.UserService;
import io.jupiter.example.benchmark.user.UserServiceImpl;
import io.jupiter.monitor.MonitorServer;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.TransportAddresses;
import io.jupiter.transport.TransportConfig;
import io.netty.channel.epoll.Epoll;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code benchmark-server}: serves {@link BenchmarkService} and {@link UserService} until the process is stopped. */
public final class BenchmarkServer {

    private BenchmarkServer() {
    }

    public static int run(String[] argv) throws InterruptedException {
        Set<String> flags = new HashSet<>(Set.of("port", "host", "provider-threads", "io-threads", "metrics",
                "stats-interval", "registry", "unix-socket"));
        flags.addAll(MonitorOption.FLAGS);
        flags.addAll(TlsOption.FLAGS);
        Flags args = new Flags(argv, 1, flags, TlsOption.SWITCHES);
        JupiterServer server = newServer(args);
        server.start();
        int cores = Runtime.getRuntime().availableProcessors();
        String registry = args.get("registry", null);
        SocketAddress bound = server.boundAddress();
        String where = bound instanceof InetSocketAddress ? bound.toString() : TransportAddresses.format(bound);
        System.out.println("benchmark-server listening on " + where + " (services test/service/1.0.0 and "
                + "test/userService/1.0.0, " + cores + " cores, metrics " + (server.metrics().enabled() ? "on" : "off")
                + ")" + (registry != null ? ", published to " + registry : "")
                + (args.has("tls-cert") ? ", TLS" + (args.has("tls-client-auth") ? " with client certificates" : "")
                : ""));
        MonitorServer monitor = MonitorOption.start(args, server, null);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (monitor != null) {
                monitor.close();
            }
            // Leave the registry first and finish the calls in flight, so consumers see no failure.
            server.shutdownGracefully(10_000);
            stopped.countDown();
        }, "benchmark-server-shutdown"));
        int statsInterval = args.getInt("stats-interval", 0, 0, 86_400);
        if (statsInterval > 0) {
            // Soak runs: this JVM's heap, direct memory and GC every interval, until the process is stopped.
            JvmStats jvm = new JvmStats();
            while (!stopped.await(statsInterval, TimeUnit.SECONDS)) {
                System.out.println("[server] " + jvm.line() + " connections=" + server.connectionCount());
            }
        }
        stopped.await();
        return 0;
    }

    /**
     * The server {@code benchmark-server} runs for these flags, not started yet: {@link BenchmarkService} (the
     * original's {@code test/service/1.0.0}) and the rpc-benchmark's {@link UserService}
     * ({@code test/userService/1.0.0}) registered, every serializer accepted.
     */
    public static JupiterServer newServer(Flags args) {
        int port = args.getInt("port", 18099, 0, 65535);
        String host = args.get("host", "0.0.0.0");
        int cores = Runtime.getRuntime().availableProcessors();
        JupiterServer.Builder builder = JupiterServer.builder().host(host).port(port);
        String unixSocket = args.get("unix-socket", null);
        if (unixSocket != null) {
            requireUnixSocketAlone(args, "host", "port", "registry", "tls-cert");
            builder.unixSocket(Path.of(unixSocket));
        }
        builder
                .providerThreads(args.getInt("provider-threads", Math.max(4, cores * 2), 0, 4096))
                .serializers(SerializerType.values())
                .metrics(MonitorOption.metricsEnabled(args))
                .transportConfig(TransportConfig.builder().threadNamePrefix("jupiter-acceptor").writerIdleMillis(0)
                        .ioThreads(args.getInt("io-threads", cores, 1, 256)).tls(TlsOption.server(args)).build());
        String registry = args.get("registry", null);
        if (registry != null) {
            builder.registry(registry);
        }
        JupiterServer server = builder.build();
        server.register(new BenchmarkServiceImpl());
        server.register(new UserServiceImpl());
        return server;
    }

    /**
     * Checks that {@code --unix-socket} comes without the flags that only mean something over TCP, and that this
     * machine has the native epoll a Unix domain socket needs.
     *
     * @throws IllegalArgumentException naming the flag, or why there is no epoll
     */
    static void requireUnixSocketAlone(Flags args, String... tcpOnly) {
        for (String flag : tcpOnly) {
            if (args.has(flag)) {
                throw new IllegalArgumentException("--unix-socket replaces the TCP address: --" + flag
                        + " does not apply to it");
            }
        }
        if (!Epoll.isAvailable()) {
            throw new IllegalArgumentException("--unix-socket needs native epoll (Linux x86_64), unavailable here: "
                    + Epoll.unavailabilityCause());
        }
    }
}
