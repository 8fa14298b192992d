package io.jupiter.example.benchmark;

import io.jupiter.rpc.InvokeFutureContext;
import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.serialization.SerializerType;
import io.jupiter.example.Args;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** {@code benchmark-client}: calls {@link BenchmarkService#hello} from N threads and reports qps and latency. */
public final class BenchmarkClient {

    static final Set<String> FLAGS = Set.of("host", "port", "mode", "threads", "warmup", "seconds", "payload",
            "serializer", "connections", "interval", "registry");

    private BenchmarkClient() {
    }

    public static int run(String[] argv) throws InterruptedException {
        Set<String> flags = new java.util.HashSet<>(FLAGS);
        flags.add("metrics");
        Args args = new Args(argv, 1, flags);
        boolean metrics = io.jupiter.example.MonitorOption.metricsEnabled(args);
        String host = args.get("host", "127.0.0.1");
        int port = args.getInt("port", 18099, 1, 65535);
        String mode = args.oneOf("mode", "sync", "sync", "future");
        int threads = args.getInt("threads", 32, 1, 4096);
        int warmup = args.getInt("warmup", 5, 0, 3600);
        int seconds = args.getInt("seconds", 30, 1, 86_400);
        int interval = args.getInt("interval", 0, 0, 86_400);
        String payloadName = args.oneOf("payload", "small", "small", "1k");
        SerializerType serializer = SerializerType.parse(args.get("serializer", "protostuff"));
        int connections = args.getInt("connections", 1, 1, 64);
        String payload = Payloads.of(payloadName);
        String registry = args.get("registry", null);

        String where = registry != null ? registry : host + ":" + port;
        System.out.printf("benchmark-client: jupiter %s mode=%s threads=%d payload=%s serializer=%s "
                        + "connections=%d warmup=%ds seconds=%ds cores=%d metrics=%s%n", where, mode, threads,
                payloadName, serializer.id(), connections, warmup, seconds, Runtime.getRuntime().availableProcessors(),
                metrics ? "on" : "off");
        try (JupiterClient client = JupiterClient.builder().appName("benchmark").metrics(metrics).build()) {
            BenchmarkService sync = proxy(client, registry, host, port).serializer(serializer)
                    .connections(connections).build();
            BenchmarkService async = proxy(client, registry, host, port)
                    .serializer(serializer).connections(connections).invokeType(InvokeType.ASYNC).build();
            LoadTarget target = new LoadTarget() {
                @Override
                public void call() {
                    String reply = sync.hello(payload);
                    if (reply.length() != payload.length()) {
                        throw new IllegalStateException("unexpected reply of " + reply.length() + " chars");
                    }
                }

                @Override
                public CompletableFuture<?> callAsync() {
                    async.hello(payload);
                    return InvokeFutureContext.future();
                }

                @Override
                public void close() {
                }
            };
            long failed = new LoadRunner(target, mode, threads, interval).run(warmup, seconds);
            return failed == 0 ? 0 : 1;
        }
    }

    /** Through the registry when one is given (the providers publish their connection count), else direct. */
    private static ProxyBuilder<BenchmarkService> proxy(JupiterClient client, String registry, String host, int port) {
        ProxyBuilder<BenchmarkService> builder = client.proxy(BenchmarkService.class);
        return registry != null ? builder.registry(registry) : builder.address(host, port);
    }
}
