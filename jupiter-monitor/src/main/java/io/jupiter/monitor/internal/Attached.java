package io.jupiter.monitor.internal;

import io.jupiter.monitor.RegistryView;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.metrics.RpcMetrics;
import java.util.ArrayList;
import java.util.List;

/**
 * What a monitor reports on: servers, clients and, optionally, a registry.
 *
 * @param registry {@code null} when no registry is attached
 */
public record Attached(List<JupiterServer> servers, List<JupiterClient> clients, RegistryView registry) {

    public Attached {
        servers = List.copyOf(servers);
        clients = List.copyOf(clients);
    }

    /** The metrics of every server, then of every client. */
    public List<RpcMetrics> metrics() {
        List<RpcMetrics> all = new ArrayList<>();
        servers.forEach(s -> all.add(s.metrics()));
        clients.forEach(c -> all.add(c.metrics()));
        return all;
    }
}
