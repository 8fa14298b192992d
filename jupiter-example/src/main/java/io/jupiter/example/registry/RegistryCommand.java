package io.jupiter.example.registry;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.example.MonitorOption;
import io.jupiter.monitor.MonitorServer;
import io.jupiter.registry.embedded.RegistryServer;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code registry}: runs the embedded registry server standalone until the process is stopped; with
 * {@code --monitor-port} also the console, whose {@code registry} commands read this server.
 */
public final class RegistryCommand {

    private RegistryCommand() {
    }

    public static int run(String[] argv) throws InterruptedException {
        Set<String> flags = new HashSet<>(MonitorOption.FLAGS);
        flags.add("port");
        flags.add("host");
        Flags args = new Flags(argv, 1, flags);
        RegistryServer server = RegistryServer.builder().host(args.get("host", "0.0.0.0"))
                .port(args.getInt("port", RegistryServer.DEFAULT_PORT, 0, 65535)).build();
        InetSocketAddress bound = server.start();
        System.out.println("registry listening on " + bound + " (use --registry default://<this host>:"
                + bound.getPort() + ")");
        MonitorServer monitor;
        try {
            monitor = MonitorOption.start(args, null, null, new RegistryServerView(server));
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (monitor != null) {
                monitor.close();
            }
            server.close();
            stopped.countDown();
        }, "registry-shutdown"));
        stopped.await();
        return 0;
    }
}
