package io.jupiter.monitor;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.serialization.SerializerType;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * A monitor on a real provider and a real consumer (with a greeter proxy when asked), all on 127.0.0.1 with free
 * ports. Provider and consumer come from the test kit's {@link JupiterServerExtension} ({@link #rpc()}, one per test
 * class); each fixture is a monitor of its own on them, closed with the fixture.
 */
final class Fixture implements AutoCloseable {

    static final String PASSWORD = "s3cret-pass";

    final JupiterServer server;
    final JupiterClient client;
    final MonitorServer monitor;
    final InetSocketAddress console;
    private final JupiterServerExtension rpc;
    private Greeter greeter;

    /** The provider (greeter, protostuff, TCP) and consumer the monitors watch: register it in a static field. */
    static JupiterServerExtension rpc() {
        return JupiterServerExtension.builder()
                .service(new GreeterImpl())
                .tcp()
                .server(b -> b.serializers(SerializerType.PROTOSTUFF))
                .client(b -> b.appName("monitor-test"))
                .build();
    }

    Fixture(JupiterServerExtension rpc, Consumer<MonitorServer.Builder> settings) {
        server = rpc.server();
        client = rpc.client();
        this.rpc = rpc;
        MonitorServer.Builder builder = MonitorServer.builder().password(PASSWORD.toCharArray()).port(0)
                .server(server).client(client).authDelay(300, 600);
        settings.accept(builder);
        monitor = builder.build();
        console = monitor.start();
    }

    Fixture(JupiterServerExtension rpc) {
        this(rpc, b -> { });
    }

    /**
     * The fixture's proxy of the greeter, made on first use: fixtures that only need a monitor add no proxy to the
     * shared consumer (the console's {@code ls} counts them).
     */
    Greeter greeter() {
        if (greeter == null) {
            greeter = rpc.proxy(Greeter.class).timeoutMillis(10_000).build();
        }
        return greeter;
    }

    ConsoleClient session() throws IOException {
        ConsoleClient session = new ConsoleClient(console);
        session.readToPrompt();
        return session;
    }

    ConsoleClient authenticated() throws IOException {
        ConsoleClient session = session();
        String answer = session.command("auth " + PASSWORD);
        if (!answer.equals("OK\r\n")) {
            throw new IllegalStateException("auth failed: " + answer);
        }
        return session;
    }

    /** Closes the monitor; the extension closes consumer and provider. */
    @Override
    public void close() {
        monitor.close();
    }
}
