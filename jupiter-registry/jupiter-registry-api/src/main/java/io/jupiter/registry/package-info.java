/**
 * Service discovery: providers {@link io.jupiter.registry.RegistryService#register register} what they serve,
 * consumers {@link io.jupiter.registry.RegistryService#subscribe subscribe} and are told the live provider list
 * whenever it changes. Implementations are found by scheme with {@link java.util.ServiceLoader}
 * ({@link io.jupiter.registry.RegistryFactory}); switching registry is one string:
 *
 * <pre>{@code
 * RegistryService registry = Registries.connect("default://127.0.0.1:20001");   // the embedded registry
 * RegistryService registry = Registries.connect("zookeeper://127.0.0.1:2181");  // ZooKeeper
 * }</pre>
 */
package io.jupiter.registry;
