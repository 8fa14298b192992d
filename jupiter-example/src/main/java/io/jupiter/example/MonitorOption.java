package io.jupiter.example;

import io.jupiter.benchmark.driver.Flags;
import io.jupiter.monitor.MonitorServer;
import io.jupiter.monitor.RegistryView;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import java.net.InetSocketAddress;
import java.util.Set;

/**
 * The example commands' monitor flags: {@code --monitor-port P} starts the console (password from the environment
 * variable {@value MonitorServer#PASSWORD_ENV}), {@code --monitor-host H} (default 127.0.0.1) and
 * {@code --monitor-http-port Q} (Prometheus {@code /metrics} and {@code /metrics.json}). Without a password it says
 * so and the command runs without a console.
 */
public final class MonitorOption {

    /** The flags this class reads. */
    public static final Set<String> FLAGS = Set.of("monitor-port", "monitor-host", "monitor-http-port");

    private MonitorOption() {
    }

    /** Starts a monitor if asked to and a password is set; returns it, or {@code null}. */
    public static MonitorServer start(Flags args, JupiterServer server, JupiterClient client) {
        return start(args, server, client, null);
    }

    /**
     * As {@link #start(Flags, JupiterServer, JupiterClient)}, with the console's {@code registry} commands reading
     * {@code registry} (any of the three may be {@code null}).
     */
    public static MonitorServer start(Flags args, JupiterServer server, JupiterClient client, RegistryView registry) {
        int port = args.getInt("monitor-port", -1, 0, 65535);
        if (port < 0) {
            return null;
        }
        String password = System.getenv(MonitorServer.PASSWORD_ENV);
        if (password == null || password.isEmpty()) {
            System.out.println("monitor: not started: set the environment variable " + MonitorServer.PASSWORD_ENV
                    + " (at least 8 characters) to use --monitor-port");
            return null;
        }
        MonitorServer.Builder builder = MonitorServer.builder().port(port)
                .host(args.get("monitor-host", "127.0.0.1"))
                .httpPort(args.getInt("monitor-http-port", -1, 0, 65535));
        try {
            builder.password(password.toCharArray());
        } catch (IllegalArgumentException e) {
            System.out.println("monitor: not started: " + MonitorServer.PASSWORD_ENV + " is too short ("
                    + e.getMessage() + ")");
            return null;
        }
        if (server != null) {
            builder.server(server);
        }
        if (client != null) {
            builder.client(client);
        }
        if (registry != null) {
            builder.registry(registry);
        }
        MonitorServer monitor = builder.build();
        InetSocketAddress console = monitor.start();
        System.out.println("monitor: console on " + console.getHostString() + ':' + console.getPort()
                + " (telnet, then auth <password>)"
                + (monitor.httpAddress() == null ? "" : "; metrics on http://" + monitor.httpAddress().getHostString()
                + ':' + monitor.httpAddress().getPort() + "/metrics"));
        return monitor;
    }

    /** {@code --metrics on|off}, default on. */
    public static boolean metricsEnabled(Flags args) {
        return args.oneOf("metrics", "on", "on", "off").equals("on");
    }
}
