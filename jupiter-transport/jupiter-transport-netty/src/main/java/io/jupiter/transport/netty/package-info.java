/**
 * The Netty transport: {@link io.jupiter.transport.netty.NettyTransportFactory} makes a
 * {@link io.jupiter.transport.netty.NettyAcceptor} (server) or a {@link io.jupiter.transport.netty.NettyConnector}
 * (client) speaking Jupiter 1.3.1's 16-byte-header framing, with heartbeats, idle close, reconnect with backoff,
 * back-pressure and native epoll when available; with {@link io.jupiter.transport.TransportConfig#tls()}, TLS
 * through {@link io.jupiter.transport.netty.ReloadingSslContext} (OpenSSL when available, else the JDK).
 */
package io.jupiter.transport.netty;
