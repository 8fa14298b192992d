package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.ConsumedService;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.transport.TransportAddresses;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

/**
 * Adds {@code jupiter} to the {@code info} endpoint: {@code provided}, the keys of the services served
 * ({@code group-name-version}), and {@code consumed}, one entry per proxy with its service, interface and addresses
 * (with the connections open to each).
 */
public final class JupiterInfoContributor implements InfoContributor {

    private final JupiterServerLifecycle server;
    private final JupiterClient client;

    /**
     * @param server the server's lifecycle (which services it serves)
     * @param client the client (which proxies it made)
     */
    public JupiterInfoContributor(JupiterServerLifecycle server, JupiterClient client) {
        this.server = server;
        this.client = client;
    }

    @Override
    public void contribute(Info.Builder builder) {
        Map<String, Object> jupiter = new LinkedHashMap<>();
        jupiter.put("provided", server.services().stream().map(Object::toString).toList());
        jupiter.put("consumed", client.consumedServices().stream().map(JupiterInfoContributor::describe).toList());
        builder.withDetail("jupiter", jupiter);
    }

    private static Map<String, Object> describe(ConsumedService service) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("service", service.key().toString());
        entry.put("interface", service.serviceInterface());
        List<Map<String, Object>> targets = service.targets().stream().map(t -> {
            Map<String, Object> target = new LinkedHashMap<>();
            target.put("address", TransportAddresses.format(t.address()));
            target.put("connections", t.activeConnections());
            return target;
        }).toList();
        entry.put("targets", targets);
        return entry;
    }
}
