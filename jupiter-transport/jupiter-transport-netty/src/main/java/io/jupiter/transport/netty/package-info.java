/**
 * The Netty transport: {@link io.jupiter.transport.netty.NettyTransportFactory} makes a
 * {@link io.jupiter.transport.netty.NettyAcceptor} (server) or a {@link io.jupiter.transport.netty.NettyConnector}
 * (client) speaking Jupiter 1.3.1's 16-byte-header framing, with heartbeats, idle close, reconnect with backoff,
 * back-pressure and native epoll when available.
 */
package io.jupiter.transport.netty;
