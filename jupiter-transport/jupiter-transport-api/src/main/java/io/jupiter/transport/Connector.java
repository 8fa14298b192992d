package io.jupiter.transport;

import java.net.InetSocketAddress;

/** The client side: opens and keeps connections to remote addresses. */
public interface Connector extends AutoCloseable {

    /**
     * Opens {@code connections} connections to {@code address} in the background and keeps them open: a lost
     * connection is reconnected with exponential backoff and jitter until the group is closed.
     */
    ConnectionGroup connect(InetSocketAddress address, int connections);

    /** Closes every group and releases the IO threads; waits until they are gone. */
    @Override
    void close();
}
