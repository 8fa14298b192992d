package io.jupiter.monitor;

import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import java.net.InetSocketAddress;

/** A real provider, a real consumer with one proxy, and a monitor on both, all on 127.0.0.1 with free ports. */
final class Fixture implements AutoCloseable {

    static final String PASSWORD = "s3cret-pass";

    final JupiterServer server;
    final JupiterClient client;
    final Greeter greeter;
    final MonitorServer monitor;
    final InetSocketAddress console;

    Fixture(java.util.function.Consumer<MonitorServer.Builder> settings) {
        server = JupiterServer.builder().host("127.0.0.1").port(0).serializers(SerializerType.PROTOSTUFF).build();
        server.register(new GreeterImpl());
        InetSocketAddress bound = server.start();
        client = JupiterClient.builder().appName("monitor-test").build();
        greeter = client.proxy(Greeter.class).address("127.0.0.1:" + bound.getPort()).timeoutMillis(10_000).build();
        MonitorServer.Builder builder = MonitorServer.builder().password(PASSWORD.toCharArray()).port(0)
                .server(server).client(client).authDelay(300, 600);
        settings.accept(builder);
        monitor = builder.build();
        console = monitor.start();
    }

    Fixture() {
        this(b -> { });
    }

    ConsoleClient session() throws java.io.IOException {
        ConsoleClient session = new ConsoleClient(console);
        session.readToPrompt();
        return session;
    }

    ConsoleClient authenticated() throws java.io.IOException {
        ConsoleClient session = session();
        String answer = session.command("auth " + PASSWORD);
        if (!answer.equals("OK\r\n")) {
            throw new IllegalStateException("auth failed: " + answer);
        }
        return session;
    }

    @Override
    public void close() {
        monitor.close();
        client.close();
        server.close();
    }
}
