package io.jupiter.transport.netty;

import io.jupiter.testkit.suites.transport.TransportSuite;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** The shared transport suite over TCP on 127.0.0.1 (native epoll where available); see {@link NettyTransportTest}. */
class TcpTransportTest extends TransportSuite {

    @Override
    protected SocketAddress newBindAddress() {
        return new InetSocketAddress("127.0.0.1", 0);
    }
}
