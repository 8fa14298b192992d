package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.benchmark.driver.LoadDriver;
import io.jupiter.benchmark.driver.LoadResult;
import io.jupiter.benchmark.driver.Payloads;
import io.jupiter.serialization.SerializerType;
import java.net.InetSocketAddress;

/**
 * {@code raw-echo-client}: the same load as {@code benchmark-client}, sent to {@link RawEchoServer} through
 * {@link RawEchoCalls}, driven by the one {@link LoadDriver}.
 */
public final class RawEchoClient {

    private RawEchoClient() {
    }

    public static int run(String[] argv) throws InterruptedException {
        Flags args = new Flags(argv, 1, BenchmarkClient.FLAGS);
        if (args.get("registry", null) != null) {
            throw new IllegalArgumentException("raw-echo-client has no --registry (it calls --host and --port)");
        }
        String host = args.get("host", "127.0.0.1");
        int port = args.getInt("port", 18098, 1, 65535);
        String mode = args.oneOf("mode", "sync", "sync", "future");
        int threads = args.getInt("threads", 32, 1, 4096);
        int warmup = args.getInt("warmup", 5, 0, 3600);
        int seconds = args.getInt("seconds", 30, 1, 86_400);
        int interval = args.getInt("interval", 0, 0, 86_400);
        String payloadName = args.oneOf("payload", "small", Payloads.NAMES);
        SerializerType serializerType = SerializerType.parse(args.get("serializer", "protostuff"));
        int connections = args.getInt("connections", 1, 1, 64);
        int cores = Runtime.getRuntime().availableProcessors();

        try (RawEchoCalls calls = new RawEchoCalls(new InetSocketAddress(host, port), connections, cores,
                serializerType, Payloads.of(payloadName))) {
            System.out.printf("raw-echo-client: %s:%d mode=%s threads=%d payload=%s (request body %d bytes) "
                            + "connections=%d warmup=%ds seconds=%ds cores=%d%n", host, port, mode, threads,
                    payloadName, calls.bodySize(), connections, warmup, seconds, cores);
            JvmStats jvm = new JvmStats();
            LoadResult result = new LoadDriver(calls, mode.equals("future"), threads, interval, jvm::line)
                    .run(warmup, seconds, System.out);
            result.print(System.out);
            return result.failures() == 0 ? 0 : 1;
        }
    }
}
