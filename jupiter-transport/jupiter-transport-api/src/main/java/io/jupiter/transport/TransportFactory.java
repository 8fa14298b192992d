package io.jupiter.transport;

import java.net.InetSocketAddress;
import java.util.ServiceLoader;

/**
 * Creates acceptors and connectors. The implementation (Netty) is found with {@link ServiceLoader}, so the layers
 * above compile against this API only.
 */
public interface TransportFactory {

    /** An acceptor that will bind {@code bindAddress} and deliver frames to {@code handler}. */
    Acceptor newAcceptor(TransportConfig config, InetSocketAddress bindAddress, FrameHandler handler);

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
