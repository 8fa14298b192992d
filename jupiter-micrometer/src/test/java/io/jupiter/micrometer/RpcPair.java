package io.jupiter.micrometer;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import java.net.InetSocketAddress;

/** A real provider serving {@link Greeter} and a real consumer with a proxy of it, on 127.0.0.1 with a free port. */
final class RpcPair implements AutoCloseable {

    final JupiterServer server;
    final JupiterClient client;
    final Greeter greeter;
    final Unregistered unregistered;

    RpcPair() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).serializers(SerializerType.PROTOSTUFF).build();
        server.register((Greeter) name -> "Hello, " + name, Greeter.class);
        InetSocketAddress bound = server.start();
        client = JupiterClient.builder().appName("micrometer-test").build();
        String address = "127.0.0.1:" + bound.getPort();
        greeter = client.proxy(Greeter.class).address(address).timeoutMillis(10_000).build();
        unregistered = client.proxy(Unregistered.class).address(address).timeoutMillis(10_000).build();
    }

    @Override
    public void close() {
        client.close();
        server.close();
    }
}
