package io.jupiter.spring.xml;

import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.serialization.SerializerType;
import java.util.Locale;
import java.util.Map;

/**
 * Jupiter 1.3.1's attribute values and what they are here. A value with no counterpart fails with a message naming
 * the attribute, the value and what to use instead.
 */
final class LegacyValues {

    /** 1.3.1's default of {@code failoverRetries}. */
    static final int DEFAULT_FAILOVER_RETRIES = 2;

    private LegacyValues() {
    }

    /** {@code default} or {@code zookeeper}, the registry URL's scheme. */
    static String registryScheme(String value) {
        String v = normalize(value);
        if (v.equals("default") || v.equals("zookeeper")) {
            return v;
        }
        throw invalid("registryType", value, "default or zookeeper");
    }

    /** The registry URL of 1.3.1's {@code registryType} and {@code registryServerAddresses}, or null. */
    static String registryUrl(String registryType, String addresses) {
        if (addresses == null || addresses.isBlank()) {
            return null;
        }
        return registryScheme(registryType == null ? "default" : registryType) + "://" + addresses.trim();
    }

    static SerializerType serializer(String value) {
        String v = normalize(value);
        if (v.equals("proto_stuff")) {
            return SerializerType.PROTOSTUFF;
        }
        try {
            return SerializerType.parse(v);
        } catch (IllegalArgumentException e) {
            throw invalid("serializerType", value, "proto_stuff, hessian, kryo or java");
        }
    }

    static LoadBalancerType loadBalancer(String value) {
        String v = normalize(value);
        if (v.equals("ext_spi")) {
            throw new IllegalArgumentException("loadBalancerType=\"ext_spi\": no load balancer plug-ins here "
                    + "(use round_robin, random or least_active)");
        }
        return enumValue(LoadBalancerType.class, "loadBalancerType", value, "round_robin, random or least_active");
    }

    static InvokeType invokeType(String value) {
        return enumValue(InvokeType.class, "invokeType", value, "sync or async");
    }

    /** 1.3.1's {@code clusterStrategy}; {@code failoverRetries} counts for {@code fail_over} only. */
    static ClusterStrategy cluster(String value, Integer failoverRetries, String attribute) {
        String v = normalize(value);
        int retries = failoverRetries == null ? DEFAULT_FAILOVER_RETRIES : failoverRetries;
        return switch (v) {
            case "fail_fast" -> ClusterStrategy.failFast();
            case "fail_over" -> ClusterStrategy.failOver(retries);
            case "fail_safe" -> ClusterStrategy.failSafe();
            default -> throw invalid(attribute, value, "fail_fast, fail_over or fail_safe");
        };
    }

    /** Whether 1.3.1's {@code dispatchType} asks for a broadcast ({@code broadcast}) or not ({@code round}). */
    static boolean broadcast(String value) {
        String v = normalize(value);
        if (v.equals("round") || v.equals("broadcast")) {
            return v.equals("broadcast");
        }
        throw invalid("dispatchType", value, "round or broadcast");
    }

    /** A whole number, naming the attribute if it is not one. */
    static long number(String attribute, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw invalid(attribute, value, "a whole number");
        }
    }

    /**
     * Checks 1.3.1's {@code netOptions}: the three options our transport always sets on are accepted with the value
     * {@code true}; every other option, or another value, fails naming it.
     */
    static void checkNetOptions(String element, Map<String, String> options) {
        for (Map.Entry<String, String> option : options.entrySet()) {
            String name = option.getKey();
            String what = "netOptions " + element + ' ' + name + "=\"" + option.getValue() + '"';
            switch (name) {
                case "TCP_NODELAY", "KEEP_ALIVE", "SO_REUSEADDR" -> {
                    if (!normalize(option.getValue()).equals("true")) {
                        throw new IllegalArgumentException(what + ": always on here (remove it)");
                    }
                }
                case "WRITE_BUFFER_HIGH_WATER_MARK", "WRITE_BUFFER_LOW_WATER_MARK" ->
                        throw new IllegalArgumentException(
                                what + ": not settable in XML (512 KiB / 1 MiB by default; in Java: "
                                        + "TransportConfig.Builder.writeBufferWaterMark)");
                case "CONNECT_TIMEOUT_MILLIS" -> throw new IllegalArgumentException(what
                        + ": not settable in XML (3,000 ms by default; in Java: TransportConfig.Builder"
                        + ".connectTimeoutMillis)");
                default -> throw new IllegalArgumentException(what
                        + ": no counterpart here (the transport leaves it at the system's default; remove it)");
            }
        }
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, String attribute, String value, String expected) {
        try {
            return Enum.valueOf(type, normalize(value).toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw invalid(attribute, value, expected);
        }
    }

    private static String normalize(String value) {
        return value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
    }

    private static IllegalArgumentException invalid(String attribute, String value, String expected) {
        return new IllegalArgumentException(attribute + "=\"" + value + "\" (expected: " + expected + ')');
    }
}
