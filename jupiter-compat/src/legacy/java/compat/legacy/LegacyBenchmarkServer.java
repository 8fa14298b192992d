package compat.legacy;

import java.net.InetSocketAddress;
import org.jupiter.rpc.DefaultServer;
import org.jupiter.rpc.JServer;
import org.jupiter.rpc.ServiceProviderImpl;
import org.jupiter.transport.netty.JNettyTcpAcceptor;

/**
 * The 1.3.1 side of the benchmark comparison: a 1.3.1 provider of {@link BenchmarkService} on
 * {@code 127.0.0.1:<port>} (args: port [native]), printing {@code ready <port>} once it serves.
 */
public final class LegacyBenchmarkServer {

    private LegacyBenchmarkServer() {
    }

    @ServiceProviderImpl(version = "1.0.0")
    public static final class Impl implements BenchmarkService {
        @Override
        public String hello(String arg) {
            return arg;
        }
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        boolean nativeEpoll = args.length > 1 && Boolean.parseBoolean(args[1]);
        JServer server = new DefaultServer().withAcceptor(
                new JNettyTcpAcceptor(new InetSocketAddress("127.0.0.1", port), nativeEpoll));
        server.serviceRegistry().provider(new Impl()).register();
        server.start(false);
        System.out.println("ready " + port);
        System.out.flush();
        Thread.currentThread().join();
    }
}
