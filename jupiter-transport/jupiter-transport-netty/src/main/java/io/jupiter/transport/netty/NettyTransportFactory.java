package io.jupiter.transport.netty;

import io.jupiter.transport.Acceptor;
import io.jupiter.transport.Connector;
import io.jupiter.transport.FrameHandler;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.TransportFactory;
import java.net.SocketAddress;

/**
 * The Netty {@link TransportFactory}, registered in {@code META-INF/services} so that
 * {@link TransportFactory#load()} finds it when this module is on the class path.
 */
public final class NettyTransportFactory implements TransportFactory {

    /** Called by {@link java.util.ServiceLoader}. */
    public NettyTransportFactory() {
    }

    @Override
    public Acceptor newAcceptor(TransportConfig config, SocketAddress bindAddress, FrameHandler handler) {
        return new NettyAcceptor(config, bindAddress, handler);
    }

    @Override
    public Connector newConnector(TransportConfig config, FrameHandler handler) {
        return new NettyConnector(config, handler);
    }
}
