/**
 * Other protocols on a provider's port: the read-only view of what a server serves ({@link
 * io.jupiter.rpc.protocol.ServiceCatalog}) and the hook a protocol module implements ({@link
 * io.jupiter.rpc.protocol.ServerProtocol}); docs/protocols.md.
 */
package io.jupiter.rpc.protocol;
