package io.jupiter.rpc.protocol;

import io.jupiter.transport.PortProtocol;

/**
 * A protocol a {@link io.jupiter.rpc.JupiterServer} serves beside the 1.3.1 frame, on the same port
 * ({@link io.jupiter.rpc.JupiterServer.Builder#protocols}). Given the server's {@link ServiceCatalog}, it makes the
 * transport-level {@link PortProtocol} that turns its requests into request frames the server's provider chain reads
 * as any other (lookup, caller identity, authorization, interceptors, executors, shedding, metrics, drain).
 */
@FunctionalInterface
public interface ServerProtocol {

    /** The transport protocol serving {@code services}; called once, as the server is built. */
    PortProtocol forServer(ServiceCatalog services);
}
