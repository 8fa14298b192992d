/**
 * The embedded registry (scheme {@code default}): {@link io.jupiter.registry.embedded.RegistryServer}, which runs
 * in-process or standalone, and its client, which speaks Jupiter 1.3.1's registry protocol byte for byte (message
 * codes 3 to 7 on the RPC framing), so 1.3.1 providers and consumers can use it and ours can use 1.3.1's server.
 * An optional shared secret adds a handshake (message code 8) that 1.3.1 peers do not speak; see
 * {@link io.jupiter.registry.embedded.RegistryServer} for what the server enforces on every peer.
 */
package io.jupiter.registry.embedded;
