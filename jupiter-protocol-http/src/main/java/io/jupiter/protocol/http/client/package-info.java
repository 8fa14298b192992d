/**
 * Calling gRPC servers (grpc-java, or any language) from a Jupiter consumer: {@link
 * io.jupiter.protocol.http.client.GrpcClientProtocol}, given to {@code ProxyBuilder.protocol(...)}, sends each
 * attempt of a proxy call as a gRPC call (unary, or a server, client or bidirectional stream) over HTTP/2
 * (prior-knowledge cleartext, or TLS with h2 by ALPN), under the proxy's own load balancing, cluster strategy,
 * outlier ejection and throttling. What maps to what: docs/protocols.md.
 */
package io.jupiter.protocol.http.client;
