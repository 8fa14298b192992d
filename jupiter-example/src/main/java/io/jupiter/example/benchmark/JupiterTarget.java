package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.BenchmarkTarget;
import io.jupiter.benchmark.driver.ClientSettings;
import io.jupiter.benchmark.driver.ServerSettings;
import io.jupiter.benchmark.driver.TargetClient;
import io.jupiter.example.benchmark.user.UserServiceImpl;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import io.jupiter.transport.TransportConfig;
import java.util.concurrent.CompletableFuture;

/**
 * This framework as a load-driver target, through its public API and its defaults: only the address, the IO
 * threads and the serializers the run uses are set. With {@code direct}, the provider runs methods on its IO threads
 * ({@code providerThreads(0)}) and the consumer completes calls on its IO threads ({@code consumerThreads(0)}),
 * the arrangement the docs recommend for services that never block.
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

    @Override
    public AutoCloseable startServer(ServerSettings settings) {
        JupiterServer.Builder builder = JupiterServer.builder().host(settings.host()).port(settings.port())
                .serializers(SerializerType.values())
                .transportConfig(TransportConfig.builder().ioThreads(settings.ioThreads()).build());
        if (settings.direct()) {
            builder.providerThreads(0);
        }
        JupiterServer server = builder.build();
        server.register(nonBlockingServices ? new BenchmarkServiceImpl.NonBlockingBenchmarkService()
                : new BenchmarkServiceImpl());
        server.register(nonBlockingServices ? new UserServiceImpl.NonBlocking() : new UserServiceImpl());
        server.start();
        return server;
    }

    @Override
    public TargetClient connect(ClientSettings settings) {
        JupiterClient.Builder builder = JupiterClient.builder().appName("benchmark")
                .transportConfig(TransportConfig.builder().ioThreads(settings.ioThreads()).build());
        if (settings.direct()) {
            builder.consumerThreads(0);
        }
        JupiterClient client = builder.build();
        try {
            BenchmarkProxies proxies = new BenchmarkProxies(client, null, settings.host(), settings.port(),
                    SerializerType.parse(settings.serializer()), settings.connections());
            return new ClosingClient(Scenario.of(settings.scenario()).target(proxies, settings.payload()), client);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** The scenario's calls, closing the {@link JupiterClient} that owns their proxies when closed. */
    private record ClosingClient(TargetClient calls, JupiterClient client) implements TargetClient {

        @Override
        public void call() throws Exception {
            calls.call();
        }

        @Override
        public CompletableFuture<?> callAsync() {
            return calls.callAsync();
        }

        @Override
        public void close() {
            calls.close();
            client.close();
        }
    }
}
