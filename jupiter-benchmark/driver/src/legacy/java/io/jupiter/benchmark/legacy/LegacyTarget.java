package io.jupiter.benchmark.legacy;

import compat.legacy.BenchmarkService;
import io.jupiter.benchmark.driver.BenchmarkTarget;
import io.jupiter.benchmark.driver.ClientSettings;
import io.jupiter.benchmark.driver.ServerSettings;
import io.jupiter.benchmark.driver.TargetClient;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import org.jupiter.rpc.DefaultClient;
import org.jupiter.rpc.DefaultServer;
import org.jupiter.rpc.InvokeType;
import org.jupiter.rpc.JClient;
import org.jupiter.rpc.JServer;
import org.jupiter.rpc.ServiceProviderImpl;
import org.jupiter.rpc.consumer.ProxyFactory;
import org.jupiter.rpc.consumer.future.InvokeFutureContext;
import org.jupiter.serialization.SerializerType;
import org.jupiter.transport.JConnection;
import org.jupiter.transport.UnresolvedAddress;
import org.jupiter.transport.UnresolvedSocketAddress;
import org.jupiter.transport.netty.JNettyTcpAcceptor;
import org.jupiter.transport.netty.JNettyTcpConnector;

/**
 * Jupiter 1.3.1 (the real jars from Maven Central) as a load-driver target, written against its public API as its
 * own BenchmarkServer and BenchmarkClient use it: native epoll, the given IO threads, one connector connection per
 * requested connection, version 1.0.0 proxies with a 3 s timeout. Its executors are chosen by system properties
 * (the comparison sets 1.3.1's fastest: {@code callerRuns}), so {@code direct} changes nothing here. Compiled by
 * {@code bench/build-legacy.sh} against 1.3.1's class path and the driver, never by Maven.
 */
public final class LegacyTarget implements BenchmarkTarget {

    @Override
    public AutoCloseable startServer(ServerSettings settings) throws Exception {
        JServer server = new DefaultServer().withAcceptor(new JNettyTcpAcceptor(
                new InetSocketAddress(settings.host(), settings.port()), settings.ioThreads(), true));
        server.serviceRegistry().provider(new Echo()).register();
        server.start(false);
        return server::shutdownGracefully;
    }

    @Override
    public TargetClient connect(ClientSettings settings) {
        if (!settings.scenario().equals("hello")) {
            throw new UnsupportedOperationException("the 1.3.1 target serves hello only, not " + settings.scenario());
        }
        JClient client = new DefaultClient("benchmark")
                .withConnector(new JNettyTcpConnector(settings.ioThreads(), true));
        UnresolvedAddress address = new UnresolvedSocketAddress(settings.host(), settings.port());
        for (int i = 0; i < settings.connections(); i++) {
            JConnection connection = client.connector().connect(address);
            client.connector().connectionManager().manage(connection);
        }
        // The channel joins its group once active, a moment after connect returns: calls wait for it.
        if (!client.connector().group(address).waitForAvailable(10_000)) {
            throw new IllegalStateException("no channel to " + address + " became available within 10 s");
        }
        SerializerType serializer = SerializerType.valueOf(settings.serializer().toUpperCase()
                .replace("PROTOSTUFF", "PROTO_STUFF"));
        return new Calls(client, proxy(client, address, serializer, InvokeType.SYNC),
                proxy(client, address, serializer, InvokeType.ASYNC), settings.payload());
    }

    private static BenchmarkService proxy(JClient client, UnresolvedAddress address, SerializerType serializer,
                                          InvokeType invokeType) {
        return ProxyFactory.factory(BenchmarkService.class).version("1.0.0").client(client)
                .serializerType(serializer).timeoutMillis(3000).invokeType(invokeType).addProviderAddress(address)
                .newProxyInstance();
    }

    /** The original benchmark's provider: echoes its argument. */
    @ServiceProviderImpl(version = "1.0.0")
    public static final class Echo implements BenchmarkService {
        @Override
        public String hello(String arg) {
            return arg;
        }
    }

    private static final class Calls implements TargetClient {
        private final JClient client;
        private final BenchmarkService sync;
        private final BenchmarkService async;
        private final String payload;

        Calls(JClient client, BenchmarkService sync, BenchmarkService async, String payload) {
            this.client = client;
            this.sync = sync;
            this.async = async;
            this.payload = payload;
        }

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
            return InvokeFutureContext.future(String.class).toCompletableFuture();
        }

        @Override
        public void close() {
            client.shutdownGracefully();
        }
    }
}
