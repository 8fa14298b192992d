package io.jupiter.example.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.example.demo.GreeterService;
import io.jupiter.example.demo.GreeterServiceImpl;
import io.jupiter.monitor.MonitorServer;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.testkit.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The console's registry commands over a real TCP session, reading a real embedded registry with two published
 * providers and one subscribed consumer, all on 127.0.0.1.
 */
class RegistryServerViewTest {

    private static final String PASSWORD = "view-test-pass";

    @Test
    void registryCommandsListTheRealProvidersAndSubscribers() throws Exception {
        try (RegistryServer registry = RegistryServer.builder().host("127.0.0.1").port(0).build()) {
            String url = "default://127.0.0.1:" + registry.start().getPort();
            try (JupiterServer first = provider(url); JupiterServer second = provider(url);
                 JupiterClient client = JupiterClient.builder().appName("view-test").registry(url).build();
                 MonitorServer monitor = MonitorServer.builder().password(PASSWORD.toCharArray()).port(0)
                         .registry(new RegistryServerView(registry)).build()) {
                int p1 = first.localAddress().getPort();
                int p2 = second.localAddress().getPort();
                GreeterService greeter = client.proxy(GreeterService.class).build();
                assertThat(greeter.greet("ada")).contains("ada");
                await(() -> registry.subscribers().size() == 1, "the consumer subscribed");
                InetSocketAddress subscriber = registry.subscribers().get(0);
                String subscriberLine = "127.0.0.1:" + subscriber.getPort() + "\r\n";
                InetSocketAddress consoleAddress = monitor.start();

                try (Console console = new Console(consoleAddress)) {
                    console.readToPrompt();
                    assertThat(console.command("auth " + PASSWORD)).isEqualTo("OK\r\n");

                    assertThat(console.command("registry -address -p").split("\r\n"))
                            .containsExactlyInAnyOrder("127.0.0.1:" + p1, "127.0.0.1:" + p2);
                    assertThat(console.command("registry -address -p -grep :" + p2))
                            .isEqualTo("127.0.0.1:" + p2 + "\r\n");
                    assertThat(console.command("registry -address -s")).isEqualTo(subscriberLine);
                    assertThat(console.command("registry -address -s -grep 10.9.9.9")).isEqualTo("(none)\r\n");

                    assertThat(console.command("registry -by_service demo greeter 1.0.0").split("\r\n"))
                            .containsExactlyInAnyOrder("127.0.0.1:" + p1, "127.0.0.1:" + p2);
                    assertThat(console.command("registry -by_service demo greeter 1.0.0 -grep :" + p1))
                            .isEqualTo("127.0.0.1:" + p1 + "\r\n");
                    assertThat(console.command("registry -by_service demo nothing 1.0.0")).isEqualTo("(none)\r\n");

                    assertThat(console.command("registry -by_address 127.0.0.1 " + p1))
                            .isEqualTo("demo-greeter-1.0.0\r\n");
                    assertThat(console.command("registry -by_address 127.0.0.1 " + p1 + " -grep echo"))
                            .isEqualTo("(none)\r\n");
                }

                // A provider that leaves is gone from the next answer.
                first.close();
                await(() -> registry.providers(new ServiceMeta("demo", "greeter", "1.0.0")).size() == 1,
                        "the closed provider withdrawn");
                try (Console console = new Console(consoleAddress)) {
                    console.readToPrompt();
                    console.command("auth " + PASSWORD);
                    assertThat(console.command("registry -address -p")).isEqualTo("127.0.0.1:" + p2 + "\r\n");
                }
            }
        }
    }

    private static JupiterServer provider(String url) {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0).registry(url).build();
        server.register(new GreeterServiceImpl());
        server.start();
        try {
            assertThat(server.awaitPublished(5000)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        return server;
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(10), condition);
    }

    /** A console session as telnet has it: writes lines, reads up to the prompt. */
    private static final class Console implements AutoCloseable {

        private static final byte[] PROMPT = ">: ".getBytes(StandardCharsets.UTF_8);

        private final Socket socket = new Socket();
        private final InputStream in;
        private final OutputStream out;

        Console(InetSocketAddress address) throws IOException {
            socket.connect(address, 5_000);
            socket.setSoTimeout(10_000);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }

        String readToPrompt() throws IOException {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            while (true) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("closed before the prompt: " + buffer.toString(StandardCharsets.UTF_8));
                }
                buffer.write(b);
                byte[] bytes = buffer.toByteArray();
                if (bytes.length >= PROMPT.length && Arrays.equals(bytes, bytes.length - PROMPT.length,
                        bytes.length, PROMPT, 0, PROMPT.length)) {
                    return new String(bytes, 0, bytes.length - PROMPT.length, StandardCharsets.UTF_8);
                }
            }
        }

        String command(String line) throws IOException {
            out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return readToPrompt();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
