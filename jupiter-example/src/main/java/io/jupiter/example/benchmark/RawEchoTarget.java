package io.jupiter.example.benchmark;

import io.jupiter.benchmark.driver.BenchmarkTarget;
import io.jupiter.benchmark.driver.ClientSettings;
import io.jupiter.benchmark.driver.ServerSettings;
import io.jupiter.benchmark.driver.TargetClient;
import io.jupiter.serialization.SerializerType;
import java.net.InetSocketAddress;

/**
 * The raw Netty echo as a load-driver target: the ceiling. Same transport, same framing and the same request bytes
 * as ours, but no RPC; {@code hello} only. It always works on its IO threads, so {@code direct} changes nothing.
 */
public final class RawEchoTarget implements BenchmarkTarget {

    @Override
    public AutoCloseable startServer(ServerSettings settings) {
        return RawEchoServer.start(settings.host(), settings.port(), settings.ioThreads());
    }

    @Override
    public TargetClient connect(ClientSettings settings) throws InterruptedException {
        if (!settings.scenario().equals("hello")) {
            throw new UnsupportedOperationException("the raw echo serves hello only, not " + settings.scenario());
        }
        return new RawEchoCalls(new InetSocketAddress(settings.host(), settings.port()), settings.connections(),
                settings.ioThreads(), SerializerType.parse(settings.serializer()), settings.payload());
    }
}
