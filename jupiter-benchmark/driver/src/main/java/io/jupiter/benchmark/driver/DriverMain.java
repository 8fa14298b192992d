package io.jupiter.benchmark.driver;

import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * The entry point of one side of one target, in a JVM of its own whose class path holds the target:
 * <pre>
 * java -cp CP io.jupiter.benchmark.driver.DriverMain server --target CLASS [--host 127.0.0.1] [--port 18099]
 *      [--io-threads 2] [--direct false]
 * java -cp CP io.jupiter.benchmark.driver.DriverMain client --target CLASS [--host 127.0.0.1] [--port 18099]
 *      [--mode sync|async|stream|fanout|upload|echo] [--threads 32] [--warmup 5] [--seconds 10]
 *      [--payload small|16b|1k|16k|256k|1m]
 *      [--scenario hello] [--serializer protostuff] [--connections 2] [--io-threads 2] [--direct false]
 * </pre>
 * The server prints {@code ready <port>} once it accepts connections and serves until the process is stopped. The
 * client prints the {@link LoadResult} lines and exits 0, or 1 if any call failed, or 2 if the target cannot run
 * what was asked (its message on stderr). With {@code --mode stream}, {@code --threads} is the number of server
 * streams open at once and the count is the messages they received ({@link StreamDriver}); with
 * {@code --mode fanout}, the subscribers of one topic ({@link StreamDriver#fanOut}); with {@code --mode upload}, client
 * streams, and the count is the messages they sent ({@link StreamDriver#upload}); with {@code --mode echo},
 * bidirectional streams, and the count is the messages echoed back to them ({@link StreamDriver#echo}).
 */
public final class DriverMain {

    /** Defaults shared by the driver's command line and {@link Compare}: 2 IO threads and 2 connections. */
    static final int DEFAULT_IO_THREADS = 2;
    static final int DEFAULT_CONNECTIONS = 2;

    private static final Set<String> SERVER_FLAGS = Set.of("target", "host", "port", "io-threads", "direct");
    private static final Set<String> CLIENT_FLAGS = Set.of("target", "host", "port", "mode", "threads", "warmup",
            "seconds", "payload", "scenario", "serializer", "connections", "io-threads", "direct");

    private DriverMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !(args[0].equals("server") || args[0].equals("client"))) {
            System.err.println("usage: DriverMain server|client --target CLASS [flags] (see the class javadoc)");
            System.exit(64);
        }
        int status;
        try {
            status = args[0].equals("server") ? serve(args) : load(args);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            System.err.println(e.getMessage());
            status = 2;
        }
        System.out.flush();
        System.exit(status);
    }

    private static int serve(String[] args) throws Exception {
        Flags flags = new Flags(args, 1, SERVER_FLAGS);
        BenchmarkTarget target = target(flags);
        ServerSettings settings = new ServerSettings(flags.get("host", "127.0.0.1"),
                flags.getInt("port", 18099, 0, 65535), flags.getInt("io-threads", DEFAULT_IO_THREADS, 1, 256),
                flags.getBoolean("direct", false));
        AutoCloseable server = target.startServer(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println("closing the server: " + e);
            }
            stopped.countDown();
        }, "driver-server-shutdown"));
        System.out.println("ready " + settings.port());
        System.out.flush();
        stopped.await();
        return 0;
    }

    private static int load(String[] args) throws Exception {
        Flags flags = new Flags(args, 1, CLIENT_FLAGS);
        BenchmarkTarget target = target(flags);
        String mode = flags.oneOf("mode", "sync", LoadCase.MODES.toArray(String[]::new));
        boolean async = mode.equals("async");
        int threads = flags.getInt("threads", 32, 1, LoadCase.MAX_SUBSCRIBERS);
        int warmup = flags.getInt("warmup", 5, 0, 3600);
        int seconds = flags.getInt("seconds", 10, 1, 86_400);
        ClientSettings settings = new ClientSettings(flags.get("host", "127.0.0.1"),
                flags.getInt("port", 18099, 1, 65535), flags.get("scenario", "hello"),
                Payloads.of(flags.oneOf("payload", "small", Payloads.NAMES)), flags.get("serializer", "protostuff"),
                flags.getInt("connections", DEFAULT_CONNECTIONS, 1, 64),
                flags.getInt("io-threads", DEFAULT_IO_THREADS, 1, 256), flags.getBoolean("direct", false));
        System.out.printf("driver client: %s %s:%d mode=%s threads=%d scenario=%s payload=%d chars serializer=%s "
                        + "connections=%d io-threads=%d direct=%s warmup=%ds seconds=%ds cores=%d%n",
                target.getClass().getSimpleName(), settings.host(), settings.port(), mode,
                threads, settings.scenario(), settings.payload().length(), settings.serializer(),
                settings.connections(), settings.ioThreads(), settings.direct(), warmup, seconds,
                Runtime.getRuntime().availableProcessors());
        LoadResult result;
        try (TargetClient client = target.connect(settings)) {
            result = switch (mode) {
                case "stream" -> new StreamDriver(client, threads).run(warmup, seconds, System.out);
                case "fanout" -> StreamDriver.fanOut(client, threads).run(warmup, seconds, System.out);
                case "upload" -> StreamDriver.upload(client, threads).run(warmup, seconds, System.out);
                case "echo" -> StreamDriver.echo(client, threads).run(warmup, seconds, System.out);
                default -> new LoadDriver(client, async, threads, 0, null).run(warmup, seconds, System.out);
            };
        }
        result.print(System.out);
        return result.failures() == 0 ? 0 : 1;
    }

    private static BenchmarkTarget target(Flags flags) throws ReflectiveOperationException {
        String name = flags.get("target", null);
        if (name == null) {
            throw new IllegalArgumentException("--target CLASS is required (a BenchmarkTarget on the class path)");
        }
        Class<?> type = Class.forName(name);
        if (!BenchmarkTarget.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("--target " + name + " is not a " + BenchmarkTarget.class.getName());
        }
        return (BenchmarkTarget) type.getDeclaredConstructor().newInstance();
    }
}
