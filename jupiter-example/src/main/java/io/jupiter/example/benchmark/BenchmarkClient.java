package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.benchmark.driver.LoadDriver;
import io.jupiter.benchmark.driver.LoadResult;
import io.jupiter.benchmark.driver.Payloads;
import io.jupiter.benchmark.driver.TargetClient;
import io.jupiter.example.MonitorOption;
import io.jupiter.example.TlsOption;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportAddresses;
import io.jupiter.transport.TransportConfig;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code benchmark-client}: makes the calls of one {@link Scenario} (by default {@link BenchmarkService#hello}) from
 * N threads and reports qps and latency.
 */
public final class BenchmarkClient {

    /** The flags {@code benchmark-client} shares with {@code raw-echo-client}. */
    static final Set<String> FLAGS = Set.of("host", "port", "mode", "threads", "warmup", "seconds", "payload",
            "serializer", "connections", "interval", "registry");

    private BenchmarkClient() {
    }

    public static int run(String[] argv) throws InterruptedException {
        Set<String> flags = new HashSet<>(FLAGS);
        flags.add("metrics");
        flags.add("scenario");
        flags.add("unix-socket");
        flags.addAll(List.of("tls-trust", "tls-cert", "tls-key"));
        Flags args = new Flags(argv, 1, flags);
        TlsConfig tls = TlsOption.client(args);
        boolean metrics = MonitorOption.metricsEnabled(args);
        String host = args.get("host", "127.0.0.1");
        int port = args.getInt("port", 18099, 1, 65535);
        String mode = args.oneOf("mode", "sync", "sync", "future");
        int threads = args.getInt("threads", 32, 1, 4096);
        int warmup = args.getInt("warmup", 5, 0, 3600);
        int seconds = args.getInt("seconds", 30, 1, 86_400);
        int interval = args.getInt("interval", 0, 0, 86_400);
        Scenario scenario = Scenario.of(args.oneOf("scenario", Scenario.HELLO.id(), Scenario.ids()));
        if (scenario != Scenario.HELLO && args.get("payload", null) != null) {
            throw new IllegalArgumentException("--payload applies to --scenario hello only (the user scenarios "
                    + "send and receive fixed users)");
        }
        String payloadName = args.oneOf("payload", "small", Payloads.NAMES);
        SerializerType serializer = SerializerType.parse(args.get("serializer", "protostuff"));
        int connections = args.getInt("connections", 1, 1, 64);
        String payload = Payloads.of(payloadName);
        String registry = args.get("registry", null);
        String unixSocket = args.get("unix-socket", null);
        if (unixSocket != null) {
            BenchmarkServer.requireUnixSocketAlone(args, "host", "port", "registry", "tls-trust");
        }
        String address = unixSocket != null ? TransportAddresses.UNIX_SCHEME + unixSocket : host + ":" + port;

        String where = registry != null ? registry : address;
        // hello prints the line it always printed; the user scenarios name themselves where hello names its payload.
        String what = scenario == Scenario.HELLO ? "payload=" + payloadName : "scenario=" + scenario.id();
        // Through a registry each provider's published connection count applies, not --connections.
        String connectionsShown = registry != null ? "as-published" : Integer.toString(connections);
        System.out.printf("benchmark-client: jupiter %s mode=%s threads=%d %s serializer=%s "
                        + "connections=%s warmup=%ds seconds=%ds cores=%d metrics=%s%s%n", where, mode, threads,
                what, serializer.id(), connectionsShown, warmup, seconds, Runtime.getRuntime().availableProcessors(),
                metrics ? "on" : "off", tls != null ? " tls=on" : "");
        try (JupiterClient client = JupiterClient.builder().appName("benchmark").metrics(metrics)
                .transportConfig(TransportConfig.builder().threadNamePrefix("jupiter-connector").readerIdleMillis(0)
                        .tls(tls).build()).build();
             TargetClient target = scenario.target(
                     new BenchmarkProxies(client, registry, address, serializer, connections), payload)) {
            JvmStats jvm = new JvmStats();
            LoadResult result = new LoadDriver(target, mode.equals("future"), threads, interval, jvm::line)
                    .run(warmup, seconds, System.out);
            result.print(System.out);
            return result.failures() == 0 ? 0 : 1;
        }
    }
}
