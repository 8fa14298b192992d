/**
 * The transport API: the 16-byte frame ({@link io.jupiter.transport.ProtocolHeader}), status codes
 * ({@link io.jupiter.transport.Status}) and the message-level SPI the RPC layer uses
 * ({@link io.jupiter.transport.TransportFactory}, {@link io.jupiter.transport.Acceptor},
 * {@link io.jupiter.transport.Connector}, {@link io.jupiter.transport.Connection}), configured by
 * {@link io.jupiter.transport.TransportConfig} and, for TLS, {@link io.jupiter.transport.TlsConfig}.
 */
package io.jupiter.transport;
