package io.jupiter.registry.internal;

import io.jupiter.common.LogText;
import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one check every registry makes on what it reads before it becomes a target: what a registry stores was
 * written by others (a controller, a mistaken manifest, another team's tool, a peer), so each record is untrusted.
 * A record passes when
 *
 * <ul>
 *   <li>its port is 1 to 65535;</li>
 *   <li>its host is what its {@link HostRule} allows: an IP literal of the record's family, not the wildcard
 *       address (0.0.0.0, ::), not multicast, not 255.255.255.255; or, where the registry's own format allows names
 *       (ZooKeeper and the embedded registry, as 1.3.1 publishes {@code jupiter.local.address}), a host name by
 *       its syntax;</li>
 *   <li>it claims the service key it was read for.</li>
 * </ul>
 *
 * Weight and connection count are clamped to their ranges, so a record that passes always makes a
 * {@link RegisterMeta}. A record that fails is skipped: one WARN line per record and cause (remembered, so a record
 * that stays bad is not logged again on every update; at most {@value #MAX_REMEMBERED} are remembered), and
 * {@link #skipped()} counts them. Confined to the registry's worker thread, except {@link #skipped()}.
 */
public final class ProviderRecords {

    private static final Logger log = LoggerFactory.getLogger(ProviderRecords.class);
    static final int MAX_REMEMBERED = 4096;

    /** What a record's host may be. */
    public enum HostRule {
        /** An IPv4 literal (a Kubernetes slice of address type IPv4). */
        IPV4,
        /** An IPv6 literal (a Kubernetes slice of address type IPv6). */
        IPV6,
        /** An IP literal of either family (a DNS answer). */
        IP,
        /** An IP literal or a host name (ZooKeeper nodes and embedded registry pushes, as 1.3.1 writes them). */
        IP_OR_HOST_NAME
    }

    private final String registry;
    private final Map<String, Boolean> reported = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MAX_REMEMBERED;
        }
    };
    private final AtomicLong skipped = new AtomicLong();

    /** The check of one registry client; {@code registry} names it in log lines ("kubernetes", "zookeeper"...). */
    public ProviderRecords(String registry) {
        this.registry = registry;
    }

    /**
     * The provider a record stands for, or {@code null} if the record is bad (then skipped, logged once and
     * counted).
     *
     * @param source    where the record is, for the log line (a slice's name, a node's path, a DNS name)
     * @param wanted    the service key the record was read for
     * @param claimed   the service key the record claims
     * @param host      the record's host, as read
     * @param rule      what the host may be
     * @param port      the record's port, as read ({@code null}: none)
     * @param weight    the record's weight (clamped to 0..{@value RegisterMeta#MAX_WEIGHT})
     * @param connCount the connections it asks for (clamped to 1..64)
     */
    public RegisterMeta accept(String source, ServiceMeta wanted, ServiceMeta claimed, String host, HostRule rule,
                               Integer port, int weight, int connCount) {
        String cause = problem(wanted, claimed, host, rule, port);
        if (cause != null) {
            skip(source, host + ":" + port, cause);
            return null;
        }
        return new RegisterMeta(new ProviderAddress(host, port), wanted, Math.max(0, Math.min(weight,
                RegisterMeta.MAX_WEIGHT)), Math.max(1, Math.min(connCount, 64)));
    }

    /**
     * Skips a record for a cause found by the registry itself (an address type it does not follow, a node name it
     * cannot parse): logged once per record and cause, and counted.
     */
    public void skip(String source, String record, String cause) {
        String key = source + '\n' + record + '\n' + cause;
        if (reported.put(key, Boolean.TRUE) == null) {
            skipped.incrementAndGet();
            log.warn("{} registry: skipping {} in {}: {}", registry, LogText.of(record), LogText.of(source),
                    LogText.of(cause));
        }
    }

    /**
     * Logs a WARN line about a record that is used all the same (a label that falls back to its default), once per
     * record and message; not counted as a skip.
     */
    public void warnOnce(String source, String message) {
        if (reported.put(source + '\n' + message, Boolean.TRUE) == null) {
            log.warn("{} registry: {}: {}", registry, LogText.of(source), LogText.of(message));
        }
    }

    /** Bad records skipped so far (each record and cause counted once, however many updates repeated it). */
    public long skipped() {
        return skipped.get();
    }

    /** Why a record may not be a target, or {@code null} if it may. */
    static String problem(ServiceMeta wanted, ServiceMeta claimed, String host, HostRule rule, Integer port) {
        if (claimed == null || !claimed.equals(wanted)) {
            return "it claims service " + claimed + ", not " + wanted;
        }
        if (port == null) {
            return "no port";
        }
        if (port < 1 || port > 65535) {
            return "port " + port + " (expected: 1 to 65535)";
        }
        if (host == null || host.isEmpty()) {
            return "no address";
        }
        byte[] v4 = HostLiterals.ipv4(host);
        byte[] v6 = v4 == null ? HostLiterals.ipv6(host) : null;
        switch (rule) {
            case IPV4 -> {
                if (v4 == null) {
                    return "address '" + host + "' is not an IPv4 literal";
                }
            }
            case IPV6 -> {
                if (v6 == null) {
                    return "address '" + host + "' is not an IPv6 literal";
                }
            }
            case IP -> {
                if (v4 == null && v6 == null) {
                    return "address '" + host + "' is not an IP literal";
                }
            }
            case IP_OR_HOST_NAME -> {
                if (v4 == null && v6 == null && !HostLiterals.isHostName(host)) {
                    return "address '" + host + "' is neither an IP literal nor a host name";
                }
            }
            default -> throw new IllegalArgumentException("rule " + rule);
        }
        byte[] bytes = v4 != null ? v4 : v6;
        if (bytes != null) {
            InetAddress address = HostLiterals.address(bytes);
            if (address.isAnyLocalAddress()) {
                return "address '" + host + "' is the wildcard address";
            }
            if (address.isMulticastAddress()) {
                return "address '" + host + "' is a multicast address";
            }
            if (v4 != null && (v4[0] & v4[1] & v4[2] & v4[3]) == (byte) 0xff) {
                return "address '" + host + "' is the broadcast address";
            }
        }
        return null;
    }
}
