package io.jupiter.registry.dns;

import io.jupiter.common.Requires;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.Registries;
import io.jupiter.registry.internal.RegistryUrl;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/**
 * What a {@code dns://} URL names: {@code dns://NAME:PORT[?refreshMillis=MS][&nameServer=HOST:PORT]}.
 *
 * @param name          the DNS name whose A and AAAA records are the providers
 * @param port          the port every provider listens on
 * @param refreshMillis how often the name is resolved again ({@value #DEFAULT_REFRESH_MILLIS} ms by default)
 * @param nameServer    the DNS server to ask (a Consul agent's, say), or {@code null} for the system's
 *                      ({@code /etc/resolv.conf})
 */
public record DnsTarget(String name, int port, long refreshMillis, InetSocketAddress nameServer) {

    /** The scheme of these addresses. */
    public static final String SCHEME = "dns";

    /** The default period of re-resolution. */
    public static final long DEFAULT_REFRESH_MILLIS = 5000;

    public DnsTarget {
        Requires.notBlank(name, "name");
        Requires.inRange(port, 1, 65535, "port");
        Requires.argument(refreshMillis >= 100, "refreshMillis: " + refreshMillis + " (expected: >= 100)");
    }

    /**
     * Parses what follows {@code dns://}.
     *
     * @throws IllegalArgumentException naming the bad part
     */
    public static DnsTarget parse(String address) {
        RegistryUrl url = RegistryUrl.parse(address);
        List<ProviderAddress> names = Registries.parseAddresses(url.address());
        Requires.argument(names.size() == 1, "dns registry: '" + address + "' (expected: one name:port)");
        long refreshMillis = DEFAULT_REFRESH_MILLIS;
        InetSocketAddress nameServer = null;
        for (Map.Entry<String, String> parameter : url.parameters()) {
            String key = parameter.getKey();
            String value = parameter.getValue();
            switch (key) {
                case "refreshMillis" -> refreshMillis = parseMillis(value);
                case "nameServer" -> {
                    ProviderAddress server = Registries.parseAddresses(value).get(0);
                    nameServer = new InetSocketAddress(server.host(), server.port());
                }
                default -> throw new IllegalArgumentException("dns registry: unknown parameter '" + key + "' in '"
                        + address + "' (expected: refreshMillis, nameServer)");
            }
        }
        return new DnsTarget(names.get(0).host(), names.get(0).port(), refreshMillis, nameServer);
    }

    private static long parseMillis(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "refreshMillis: '" + value + "' (expected: a number of milliseconds)", e);
        }
    }
}
