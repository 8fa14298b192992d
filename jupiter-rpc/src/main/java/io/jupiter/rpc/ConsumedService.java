package io.jupiter.rpc;

import java.net.SocketAddress;
import java.util.List;

/**
 * A read-only view of one client proxy: the service it calls and, per address, how many connections are open.
 *
 * @param key              the service
 * @param serviceInterface the proxied interface's class name
 * @param targets          the addresses the proxy calls
 */
public record ConsumedService(ServiceKey key, String serviceInterface, List<Target> targets) {

    public ConsumedService {
        targets = List.copyOf(targets);
    }

    /**
     * One address of a proxy.
     *
     * @param address           the provider's address (TCP, Unix domain socket or in-process; written out by
     *                          {@link io.jupiter.transport.TransportAddresses#format})
     * @param activeConnections connections open to it right now (0: connecting or reconnecting)
     */
    public record Target(SocketAddress address, int activeConnections) {
    }
}
