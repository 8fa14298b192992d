package io.jupiter.rpc;

import io.jupiter.transport.TransportConfig;
import java.util.function.Function;

/**
 * The setup the attack tests share: a server on 127.0.0.1 (an ephemeral port) serving the given services, and beside
 * it a {@link GoodCaller} that calls one unary method in a loop on its own client and connection, with a generous
 * timeout (on a busy 2-core machine calls are slow under an attack; what counts is that none fails). Closing it
 * stops the caller, then the client, then the server.
 */
public final class AttackedServer implements AutoCloseable {

    /** The server under attack, started. */
    public final JupiterServer server;
    /** The well-behaved caller, calling already. */
    public final GoodCaller good;
    private final JupiterClient client;

    private AttackedServer(JupiterServer server, JupiterClient client, GoodCaller good) {
        this.server = server;
        this.client = client;
        this.good = good;
    }

    /**
     * Starts a server with {@code services} and a good caller of {@code goodService} (one of them) that calls
     * {@code goodCall} and expects {@code expected}.
     */
    public static <T> AttackedServer start(Class<T> goodService, Function<T, Object> goodCall, Object expected,
                                           Object... services) {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).build();
        for (Object service : services) {
            server.register(service);
        }
        server.start();
        JupiterClient client = JupiterClient.builder().transportConfig(TransportConfig.builder()
                .threadNamePrefix("good-client").keepaliveTimeoutMillis(0).build()).build();
        T proxy = client.proxy(goodService).address("127.0.0.1", server.localAddress().getPort()).connections(1)
                .timeoutMillis(30_000).build();
        return new AttackedServer(server, client, new GoodCaller(() -> goodCall.apply(proxy), expected));
    }

    /** The server's port, for the attackers' sockets. */
    public int port() {
        return server.localAddress().getPort();
    }

    @Override
    public void close() throws InterruptedException {
        good.close();
        client.close();
        server.close();
    }
}
