package io.jupiter.example.benchmark;

import io.jupiter.rpc.InvokeType;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.serialization.SerializerType;

/**
 * Builds the benchmark client's proxies, all alike: through the registry when one is given (the providers publish
 * their connection count), else straight to the address ({@code host:port} or {@code unix:PATH}) with the run's
 * connection count; with the run's serializer.
 */
final class BenchmarkProxies {

    private final JupiterClient client;
    private final String registry;
    private final String address;
    private final SerializerType serializer;
    private final int connections;

    BenchmarkProxies(JupiterClient client, String registry, String address, SerializerType serializer,
                     int connections) {
        this.client = client;
        this.registry = registry;
        this.address = address;
        this.serializer = serializer;
        this.connections = connections;
    }

    /** A proxy whose calls block until the reply. */
    <S> S sync(Class<S> serviceInterface) {
        return builder(serviceInterface).build();
    }

    /** A proxy whose calls block until the reply, with {@code timeoutMillis} for the method {@code method}. */
    <S> S sync(Class<S> serviceInterface, long timeoutMillis, String method) {
        return builder(serviceInterface).methodTimeoutMillis(method, timeoutMillis).build();
    }

    /** A proxy whose calls return at once; the call's future is {@code InvokeFutureContext.future()}. */
    <S> S async(Class<S> serviceInterface) {
        return builder(serviceInterface).invokeType(InvokeType.ASYNC).build();
    }

    private <S> ProxyBuilder<S> builder(Class<S> serviceInterface) {
        ProxyBuilder<S> builder = client.proxy(serviceInterface).serializer(serializer).connections(connections);
        return registry != null ? builder.registry(registry) : builder.address(address);
    }
}
