package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.BenchmarkTarget;
import io.jupiter.benchmark.driver.ClientSettings;
import io.jupiter.benchmark.driver.ServerSettings;
import io.jupiter.benchmark.driver.StreamListener;
import io.jupiter.benchmark.driver.TargetClient;
import io.jupiter.example.benchmark.user.UserServiceImpl;
import io.jupiter.protocol.http.HttpProtocols;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.stream.Streams;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportConfig;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * This framework as a load-driver target, through its public API and its defaults: only the address, the IO
 * threads and the serializers the run uses are set. With {@code direct}, the provider runs methods on its IO threads
 * ({@code providerThreads(0)}) and the consumer completes calls on its IO threads ({@code consumerThreads(0)}),
 * the arrangement the docs recommend for services that never block.
 *
 * <p>With the system property {@value #TLS_DIR} (the driver's target {@code jupiter-tls} sets it) both sides speak
 * TLS: the server presents {@code server.crt}/{@code server.key} of that directory, the client trusts its
 * {@code ca.crt} (and checks the host name, as by default).
 */
public class JupiterTarget implements BenchmarkTarget {

    private final boolean nonBlockingServices;

    public JupiterTarget() {
        this(false);
    }

    /** @param nonBlockingServices register the services declared {@link io.jupiter.rpc.NonBlocking} */
    protected JupiterTarget(boolean nonBlockingServices) {
        this.nonBlockingServices = nonBlockingServices;
    }

    /** System property: a directory with {@code ca.crt}, {@code server.crt} and {@code server.key}; set, TLS is on. */
    public static final String TLS_DIR = "jupiter.benchmark.tls.dir";

    /**
     * System property: {@code true} serves HTTP/JSON and gRPC beside the 1.3.1 protocol on the server's port
     * ({@code protocols(HttpProtocols.httpAndGrpc())}), so that what sniffing costs the 1.3.1 path is measured.
     */
    public static final String PROTOCOLS = "jupiter.benchmark.protocols";

    @Override
    public AutoCloseable startServer(ServerSettings settings) {
        JupiterServer.Builder builder = JupiterServer.builder().host(settings.host()).port(settings.port())
                .serializers(SerializerType.values())
                .transportConfig(TransportConfig.builder().ioThreads(settings.ioThreads()).tls(serverTls()).build());
        if (settings.direct()) {
            builder.providerThreads(0);
        }
        if (Boolean.getBoolean(PROTOCOLS)) {
            builder.protocols(HttpProtocols.httpAndGrpc());
        }
        JupiterServer server = builder.build();
        server.register(nonBlockingServices ? new BenchmarkServiceImpl.NonBlockingBenchmarkService()
                : new BenchmarkServiceImpl());
        server.register(nonBlockingServices ? new UserServiceImpl.NonBlocking() : new UserServiceImpl());
        server.register(new BenchmarkStreamServiceImpl());
        server.start();
        return server;
    }

    @Override
    public TargetClient connect(ClientSettings settings) {
        JupiterClient.Builder builder = JupiterClient.builder().appName("benchmark")
                .transportConfig(TransportConfig.builder().ioThreads(settings.ioThreads()).tls(clientTls())
                        .build());
        if (settings.direct()) {
            builder.consumerThreads(0);
        }
        JupiterClient client = builder.build();
        try {
            BenchmarkProxies proxies = new BenchmarkProxies(client, null, settings.host() + ':' + settings.port(),
                    SerializerType.parse(settings.serializer()), settings.connections());
            return new ClosingClient(Scenario.of(settings.scenario()).target(proxies, settings.payload()), client,
                    proxies, settings.payload());
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    private static TlsConfig serverTls() {
        Path dir = tlsDir();
        return dir == null ? null : TlsConfig.builder().keyPair(dir.resolve("server.crt"), dir.resolve("server.key"))
                .build();
    }

    private static TlsConfig clientTls() {
        Path dir = tlsDir();
        return dir == null ? null : TlsConfig.builder().trust(dir.resolve("ca.crt")).build();
    }

    private static Path tlsDir() {
        String dir = System.getProperty(TLS_DIR);
        return dir == null || dir.isBlank() ? null : Path.of(dir);
    }

    /**
     * The scenario's calls, closing the {@link JupiterClient} that owns their proxies when closed; server streams,
     * topic subscriptions and client streams (uploads) of {@link BenchmarkStreamService} through a proxy made on first
     * use.
     */
    private static final class ClosingClient implements TargetClient {
        /** A client stream's timeout bounds the whole upload: longer than any run (an hour). */
        private static final long UPLOAD_TIMEOUT_MILLIS = 3_600_000;

        private final TargetClient calls;
        private final JupiterClient client;
        private final BenchmarkProxies proxies;
        private final String payload;
        private BenchmarkStreamService streams;

        ClosingClient(TargetClient calls, JupiterClient client, BenchmarkProxies proxies, String payload) {
            this.calls = calls;
            this.client = client;
            this.proxies = proxies;
            this.payload = payload;
        }

        @Override
        public void call() throws Exception {
            calls.call();
        }

        @Override
        public CompletableFuture<?> callAsync() {
            return calls.callAsync();
        }

        @Override
        public AutoCloseable openStream(StreamListener listener) {
            StreamReader reader = new StreamReader(listener);
            streams().ticks(payload).subscribe(reader);
            return reader;
        }

        @Override
        public AutoCloseable subscribe(int publishesPerSecond, StreamListener listener) {
            StreamReader reader = new StreamReader(listener);
            streams().topic(payload, publishesPerSecond).subscribe(reader);
            return reader;
        }

        @Override
        public AutoCloseable openUpload(StreamListener listener) {
            AtomicBoolean closed = new AtomicBoolean();
            Flow.Publisher<StreamTick> ticks = Streams.produce(sink -> {
                while (!closed.get() && sink.isOpen()) {
                    sink.send(new StreamTick(System.nanoTime(), payload));
                    listener.onMessage(0);
                }
            });
            streams().upload(ticks).whenComplete((read, error) -> listener.onEnd(error));
            return () -> closed.set(true);
        }

        @Override
        public AutoCloseable openEcho(StreamListener listener) {
            AtomicBoolean closed = new AtomicBoolean();
            Flow.Publisher<StreamTick> ticks = Streams.produce(sink -> {
                while (!closed.get() && sink.isOpen()) {
                    sink.send(new StreamTick(System.nanoTime(), payload));
                }
            });
            StreamReader reader = new StreamReader(listener);
            streams().echo(ticks).subscribe(reader);
            return () -> {
                closed.set(true);
                reader.close();
            };
        }

        private synchronized BenchmarkStreamService streams() {
            if (streams == null) {
                streams = proxies.sync(BenchmarkStreamService.class, UPLOAD_TIMEOUT_MILLIS, "upload");
            }
            return streams;
        }

        @Override
        public void close() {
            calls.close();
            client.close();
        }
    }
}
