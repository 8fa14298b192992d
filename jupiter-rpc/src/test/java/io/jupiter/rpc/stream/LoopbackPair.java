package io.jupiter.rpc.stream;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;

/**
 * The set-up the stream tests share: a real server on 127.0.0.1 (on a port the OS chose) serving the given
 * implementations with the default settings, and a client whose proxies keep one connection to it.
 */
final class LoopbackPair implements AutoCloseable {

    final JupiterServer server;
    final JupiterClient client;

    private LoopbackPair(Object... implementations) {
        server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        for (Object implementation : implementations) {
            server.register(implementation);
        }
        server.start();
        client = JupiterClient.builder().build();
    }

    /** A started server serving {@code implementations}, and a client. */
    static LoopbackPair serving(Object... implementations) {
        return new LoopbackPair(implementations);
    }

    /** The server's port. */
    int port() {
        return server.localAddress().getPort();
    }

    /** A proxy of {@code service} on the client, one connection to the server, calls timed out after {@code millis}. */
    <T> T proxy(Class<T> service, int millis) {
        return client.proxy(service).address("127.0.0.1", port()).connections(1).timeoutMillis(millis).build();
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }
}
