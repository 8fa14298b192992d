package io.jupiter.benchmark.interop;

import io.jupiter.benchmark.driver.BenchmarkTarget;
import io.jupiter.benchmark.driver.ClientSettings;
import io.jupiter.benchmark.driver.ServerSettings;
import io.jupiter.benchmark.driver.TargetClient;
import io.jupiter.benchmark.grpc.GrpcTarget;
import io.jupiter.protocol.http.HttpProtocols;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.transport.TransportConfig;

/**
 * gRPC served by a Jupiter provider ({@code protocols(HttpProtocols.httpAndGrpc())}), called by the very client of
 * the gRPC-java target ({@link GrpcTarget#connect}: the same channels, stubs, messages and deadline), so that the
 * two servers are compared with nothing else changed. The server sets only its address and IO threads; with
 * {@code direct}, the provider runs methods on its IO threads ({@code providerThreads(0)}), as gRPC-java's
 * {@code directExecutor()} does, and the client uses {@code directExecutor()} as in {@code grpc-direct}.
 */
public final class GrpcOnJupiterTarget implements BenchmarkTarget {

    private final GrpcTarget grpc = new GrpcTarget();

    @Override
    public AutoCloseable startServer(ServerSettings settings) {
        JupiterServer.Builder builder = JupiterServer.builder().host(settings.host()).port(settings.port())
                .protocols(HttpProtocols.httpAndGrpc())
                .transportConfig(TransportConfig.builder().ioThreads(settings.ioThreads()).build());
        if (settings.direct()) {
            builder.providerThreads(0);
        }
        JupiterServer server = builder.build();
        server.register(new GrpcBenchmarkServiceImpl());
        server.start();
        return server;
    }

    @Override
    public TargetClient connect(ClientSettings settings) {
        return grpc.connect(settings);
    }
}
