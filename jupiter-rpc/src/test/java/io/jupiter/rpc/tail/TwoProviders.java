package io.jupiter.rpc.tail;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.ProxyBuilder;
import io.jupiter.testkit.FaultProxy;

/**
 * Two providers of {@link TailService} ("a" and "b") on 127.0.0.1, each behind its own {@link FaultProxy}, and a
 * client whose proxies call both through the proxies.
 */
final class TwoProviders implements AutoCloseable {

    final TailServiceImpl a = new TailServiceImpl("a");
    final TailServiceImpl b = new TailServiceImpl("b");
    private final JupiterServer serverA;
    private final JupiterServer serverB;
    final FaultProxy proxyA;
    final FaultProxy proxyB;
    final JupiterClient client;

    TwoProviders() {
        this(JupiterClient.builder().build());
    }

    TwoProviders(JupiterClient client) {
        this.client = client;
        serverA = JupiterServer.builder().host("127.0.0.1").port(0).build();
        serverA.register(a);
        serverB = JupiterServer.builder().host("127.0.0.1").port(0).build();
        serverB.register(b);
        proxyA = FaultProxy.start(serverA.start().getPort());
        proxyB = FaultProxy.start(serverB.start().getPort());
    }

    /** A proxy builder calling both providers through their fault proxies. */
    ProxyBuilder<TailService> proxy() {
        return client.proxy(TailService.class)
                .address("127.0.0.1:" + proxyA.port() + ",127.0.0.1:" + proxyB.port());
    }

    /** How many times the client's metrics counted {@code meter} (e.g. {@code outlier.ejection}). */
    long meter(String meter) {
        return client.metrics().registry().meter(meter).getCount();
    }

    /** Request bodies the client wrote, one per attempt sent. */
    long requestsSent() {
        return client.metrics().registry().histogram("request.size").getCount();
    }

    @Override
    public void close() {
        client.close();
        proxyA.close();
        proxyB.close();
        serverA.close();
        serverB.close();
    }
}
