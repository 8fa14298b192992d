package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.JupiterServer;
import java.net.InetSocketAddress;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The health of the RPC server, as component {@code jupiter}: {@code UP} while it listens and its registry (if any)
 * accepts connections; {@code OUT_OF_SERVICE} while it drains on shutdown; {@code DOWN} when it should listen and
 * does not, or its registry cannot be reached. An application without services (a consumer only) is {@code UP}.
 * Details: {@code listening} (address), {@code services}, {@code connections}, {@code registry},
 * {@code registryReachable}, {@code state}.
 */
public final class JupiterHealthIndicator implements HealthIndicator {

    /** How long a registry probe waits for a connection. */
    private static final int PROBE_TIMEOUT_MILLIS = 1_000;

    private final JupiterServer server;
    private final JupiterServerLifecycle lifecycle;
    private final String registry;
    private final RegistryProbe probe;

    /**
     * @param server    the server
     * @param lifecycle its lifecycle (whether it serves or drains)
     * @param registry  the registry URL it publishes to, or {@code null}
     */
    public JupiterHealthIndicator(JupiterServer server, JupiterServerLifecycle lifecycle, String registry) {
        this.server = server;
        this.lifecycle = lifecycle;
        this.registry = registry;
        this.probe = registry == null || !RegistryProbe.hasAddresses(registry) ? null
                : new RegistryProbe(registry, PROBE_TIMEOUT_MILLIS);
    }

    @Override
    public Health health() {
        JupiterServerLifecycle.State state = lifecycle.state();
        Health.Builder health = new Health.Builder().withDetail("state", state.name());
        boolean hasServices = !lifecycle.services().isEmpty();
        if (hasServices) {
            InetSocketAddress bound = server.localAddress();
            health.withDetail("services", lifecycle.services().stream().map(Object::toString).toList())
                    .withDetail("listening", bound == null ? "no" : bound.getHostString() + ':' + bound.getPort())
                    .withDetail("connections", server.connectionCount());
        }
        boolean registryUp = true;
        if (probe != null && hasServices) {
            registryUp = probe.reachable();
            health.withDetail("registry", registry).withDetail("registryReachable", registryUp);
        }
        if (state == JupiterServerLifecycle.State.DRAINING) {
            return health.outOfService().build();
        }
        if (!hasServices) {
            return state == JupiterServerLifecycle.State.SERVING ? health.up().build() : health.unknown().build();
        }
        boolean listening = state == JupiterServerLifecycle.State.SERVING && server.localAddress() != null;
        return (listening && registryUp ? health.up() : health.down()).build();
    }
}
