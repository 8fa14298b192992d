package io.jupiter.transport;

import java.net.SocketAddress;
import java.util.ServiceLoader;

/**
 * Creates acceptors and connectors. The implementation (Netty) is found with {@link ServiceLoader}, so the layers
 * above compile against this API only.
 */
public interface TransportFactory {

    /**
     * An acceptor that will bind {@code bindAddress} and deliver frames to {@code handler}. The address is TCP, a
     * Unix domain socket or in-process; see {@link TransportAddresses}.
     */
    Acceptor newAcceptor(TransportConfig config, SocketAddress bindAddress, FrameHandler handler);

    /** A connector whose connections deliver frames to {@code handler}. */
    Connector newConnector(TransportConfig config, FrameHandler handler);

    /**
     * The transport on the class path.
     *
     * @throws IllegalStateException if there is none
     */
    static TransportFactory load() {
        return ServiceLoader.load(TransportFactory.class, TransportFactory.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new IllegalStateException(
                        "no transport on the class path (add io.jupiter:jupiter-transport-netty)"));
    }
}
