package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.serialization.SerializerType;
import io.jupiter.spring.boot.JupiterReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Makes the proxies {@link JupiterReference} asks for, one per interface and set of attributes, with the
 * application's {@link JupiterClient} (found when the first proxy is made).
 */
public final class ReferenceFactory {

    private final ObjectProvider<JupiterClient> client;
    private final JupiterProperties.Client defaults;
    private final UnaryOperator<String> placeholders;
    private final Map<Key, Object> proxies = new ConcurrentHashMap<>();

    /**
     * @param client       the client that makes the proxies
     * @param defaults     {@code jupiter.client.*}
     * @param placeholders resolves {@code ${...}} in string attributes
     */
    public ReferenceFactory(ObjectProvider<JupiterClient> client, JupiterProperties.Client defaults,
                            UnaryOperator<String> placeholders) {
        this.client = client;
        this.defaults = defaults;
        this.placeholders = placeholders;
    }

    /**
     * The proxy of {@code type} that {@code reference} describes; {@code where} names the injection point in errors.
     *
     * @throws InvalidJupiterPropertyException if an attribute cannot be used
     */
    public Object proxy(Class<?> type, JupiterReference reference, String where) {
        if (!type.isInterface()) {
            throw new InvalidJupiterPropertyException("@JupiterReference on " + where + ": " + type.getName()
                    + " is not an interface (expected: a service interface)", null);
        }
        return proxies.computeIfAbsent(new Key(type, reference), k -> build(type, reference, where));
    }

    private Object build(Class<?> type, JupiterReference reference, String where) {
        JupiterClient jupiter = client.getObject();
        if (resolve(reference.address()) == null && resolve(reference.registry()) == null
                && jupiter.registry() == null) {
            throw new InvalidJupiterPropertyException("@JupiterReference on " + where + ": no provider address for "
                    + type.getName() + " (expected: its address or registry attribute, or jupiter.registry.address)",
                    null);
        }
        ProxyBuilder<?> builder = jupiter.proxy(type);
        String prefix = "@JupiterReference(";
        set(prefix + "address) on " + where, resolve(reference.address()), builder::address);
        set(prefix + "registry) on " + where, resolve(reference.registry()), builder::registry);
        set(prefix + "group) on " + where, resolve(reference.group()), builder::group);
        set(prefix + "name) on " + where, resolve(reference.name()), builder::name);
        set(prefix + "version) on " + where, resolve(reference.version()), builder::version);
        Long timeout = reference.timeoutMillis() != 0 ? Long.valueOf(reference.timeoutMillis())
                : defaults.getTimeout() == null ? null : defaults.getTimeout().toMillis();
        set(prefix + "timeoutMillis) on " + where, timeout, builder::timeoutMillis);
        SerializerType serializer = one(reference.serializer(), "serializer", where);
        if (serializer == null && defaults.getSerializer() != null) {
            serializer = parseSerializer(defaults.getSerializer());
        }
        set(prefix + "serializer) on " + where, serializer, builder::serializer);
        set(prefix + "invokeType) on " + where, one(reference.invokeType(), "invokeType", where),
                builder::invokeType);
        set(prefix + "loadBalancer) on " + where, one(reference.loadBalancer(), "loadBalancer", where),
                builder::loadBalancer);
        ClusterStrategy.Kind kind = one(reference.cluster(), "cluster", where);
        if (kind != null) {
            set(prefix + "cluster) on " + where, kind, k -> builder.cluster(strategy(k, reference.failoverRetries())));
        }
        if (reference.connections() != 0) {
            set(prefix + "connections) on " + where, reference.connections(), builder::connections);
        }
        if (reference.idempotent().length > 0) {
            set(prefix + "idempotent) on " + where, reference.idempotent(), builder::idempotent);
        }
        ReferenceTailTolerance.apply(reference, builder, where);
        try {
            return builder.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new InvalidJupiterPropertyException("@JupiterReference on " + where + ": " + e.getMessage(), e);
        }
    }

    /** 1.3.1's names for the strategies map one to one onto {@link ClusterStrategy}. */
    static ClusterStrategy strategy(ClusterStrategy.Kind kind, int failoverRetries) {
        return switch (kind) {
            case FAIL_FAST -> ClusterStrategy.failFast();
            case FAIL_OVER -> ClusterStrategy.failOver(failoverRetries);
            case FAIL_SAFE -> ClusterStrategy.failSafe();
            case BROADCAST -> ClusterStrategy.broadcast();
        };
    }

    private static SerializerType parseSerializer(String id) {
        try {
            return SerializerType.parse(id);
        } catch (IllegalArgumentException e) {
            throw PropertyCheck.invalid("jupiter.client.serializer", id, e);
        }
    }

    private String resolve(String value) {
        if (value.isEmpty()) {
            return null;
        }
        String resolved = placeholders.apply(value);
        return resolved == null || resolved.isBlank() ? null : resolved;
    }

    private static <T> T one(T[] values, String attribute, String where) {
        if (values.length > 1) {
            throw new InvalidJupiterPropertyException("@JupiterReference(" + attribute + ") on " + where + ": "
                    + values.length + " values (expected: at most one)", null);
        }
        return values.length == 0 ? null : values[0];
    }

    private static <T> void set(String what, T value, Consumer<T> setter) {
        PropertyCheck.apply(what, value, setter);
    }

    /** Equal annotations (by their attributes) of the same interface share a proxy. */
    private record Key(Class<?> type, JupiterReference reference) {
    }
}
