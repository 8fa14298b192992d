package io.jupiter.example.registry;

import io.jupiter.example.Args;
import io.jupiter.registry.embedded.RegistryServer;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/** {@code registry}: runs the embedded registry server standalone until the process is stopped. */
public final class RegistryCommand {

    private RegistryCommand() {
    }

    public static int run(String[] argv) throws InterruptedException {
        Args args = new Args(argv, 1, Set.of("port", "host"));
        RegistryServer server = RegistryServer.builder().host(args.get("host", "0.0.0.0"))
                .port(args.getInt("port", RegistryServer.DEFAULT_PORT, 0, 65535)).build();
        InetSocketAddress bound = server.start();
        System.out.println("registry listening on " + bound + " (use --registry default://<this host>:"
                + bound.getPort() + ")");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "registry-shutdown"));
        stopped.await();
        return 0;
    }
}
