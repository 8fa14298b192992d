package io.jupiter.example.registry;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.example.MonitorOption;
import io.jupiter.example.TlsOption;
import io.jupiter.monitor.MonitorServer;
import io.jupiter.registry.embedded.EmbeddedRegistryFactory;
import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.transport.TlsConfig;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code registry}: runs the embedded registry server standalone until the process is stopped; with
 * {@code --monitor-port} also the console, whose {@code registry} commands read this server. It binds
 * {@code --host} (default 127.0.0.1) and takes its shared secret from {@code JUPITER_REGISTRY_SECRET} (none when
 * unset: a WARN line when it then listens beyond loopback).
 */
public final class RegistryCommand {

    private RegistryCommand() {
    }

    public static int run(String[] argv) throws InterruptedException {
        Set<String> flags = new HashSet<>(MonitorOption.FLAGS);
        flags.add("port");
        flags.add("host");
        flags.addAll(TlsOption.FLAGS);
        Flags args = new Flags(argv, 1, flags, TlsOption.SWITCHES);
        TlsConfig tls = TlsOption.server(args);
        String secret = EmbeddedRegistryFactory.secretFromEnvironment();
        RegistryServer server = RegistryServer.builder().host(args.get("host", RegistryServer.DEFAULT_HOST))
                .port(args.getInt("port", RegistryServer.DEFAULT_PORT, 0, 65535)).tls(tls).secret(secret).build();
        InetSocketAddress bound = server.start();
        System.out.println("registry listening on " + bound + " (use --registry default://<this host>:"
                + bound.getPort() + (tls == null ? "" : "; TLS only: clients need -D"
                + EmbeddedRegistryFactory.TLS_TRUST + "=<CA file>" + (tls.requireClientAuth() ? " and -D"
                + EmbeddedRegistryFactory.TLS_CERT + ", -D" + EmbeddedRegistryFactory.TLS_KEY : ""))
                + (secret == null ? "; no secret: any peer may publish" : "; clients need the same "
                + EmbeddedRegistryFactory.SECRET_ENVIRONMENT_VARIABLE) + ")");
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
