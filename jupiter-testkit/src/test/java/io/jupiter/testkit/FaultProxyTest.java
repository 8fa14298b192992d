package io.jupiter.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.testkit.FaultProxy.Direction;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy between a real blocking client socket and a real echo server on 127.0.0.1. */
class FaultProxyTest {

    private ServerSocket echo;
    private final List<Socket> echoConnections = new CopyOnWriteArrayList<>();
    private FaultProxy proxy;

    @BeforeEach
    void startEchoServerAndProxy() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptEchoConnections, "echo-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        proxy = FaultProxy.start(echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
        for (Socket socket : echoConnections) {
            socket.close();
        }
    }

    @Test
    void forwardsBothWaysWhenHealthy() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "hello", 2_000)).isEqualTo("hello");
            assertThat(roundTrip(client, "again", 2_000)).isEqualTo("again");
        }
        assertThat(proxy.acceptedConnections()).isEqualTo(1);
    }

    @Test
    void blackholeHoldsBytesWithoutClosingAndHealingDeliversThemInOrder() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "warm", 2_000)).isEqualTo("warm");
            proxy.blackhole(Direction.TARGET_TO_CLIENT);
            send(client, "lost?");
            assertThatThrownBy(() -> read(client, 5, 300)).isInstanceOf(SocketTimeoutException.class);
            assertThat(proxy.openConnections()).isEqualTo(1);
            proxy.healthy();
            assertThat(read(client, 5, 2_000)).isEqualTo("lost?");

            proxy.blackhole();
            send(client, "first");
            send(client, "after");
            assertThatThrownBy(() -> read(client, 5, 300)).isInstanceOf(SocketTimeoutException.class);
            proxy.healthy();
            assertThat(read(client, 10, 2_000)).isEqualTo("firstafter");
        }
    }

    @Test
    void delayAddsLatencyInOneDirection() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "warm", 2_000)).isEqualTo("warm");
            proxy.delay(Direction.CLIENT_TO_TARGET, Duration.ofMillis(300));
            long start = System.nanoTime();
            assertThat(roundTrip(client, "slow", 3_000)).isEqualTo("slow");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(290));
            proxy.healthy();
            assertThat(roundTrip(client, "fast", 2_000)).isEqualTo("fast");
        }
    }

    @Test
    void resetSendsRstToOpenAndNewConnectionsUntilHealthy() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "warm", 2_000)).isEqualTo("warm");
            proxy.reset();
            assertThatThrownBy(() -> read(client, 1, 2_000)).isInstanceOf(SocketException.class)
                    .hasMessageContaining("reset");
        }
        // A new connection is reset as soon as it is accepted: at connect or at the first read.
        assertThatThrownBy(() -> {
            try (Socket client = connect()) {
                read(client, 1, 2_000);
            }
        }).isInstanceOf(SocketException.class).hasMessageContaining("reset");
        proxy.healthy();
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "back", 2_000)).isEqualTo("back");
        }
    }

    @Test
    void refuseRefusesNewConnectionsKeepsOpenOnesAndHealthyBindsTheSamePort() throws IOException {
        try (Socket open = connect()) {
            assertThat(roundTrip(open, "warm", 2_000)).isEqualTo("warm");
            proxy.refuse();
            Await.until("new connections are refused", Duration.ofSeconds(5), this::refused);
            assertThat(roundTrip(open, "still", 2_000)).isEqualTo("still");
            proxy.healthy();
            try (Socket again = connect()) {
                assertThat(roundTrip(again, "back", 2_000)).isEqualTo("back");
            }
        }
    }

    @Test
    void closeClosesEveryConnectionAndTheListeningSocket() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "warm", 2_000)).isEqualTo("warm");
            proxy.close();
            assertThat(client.getInputStream().read()).isEqualTo(-1);
            Await.until("new connections are refused", Duration.ofSeconds(5), this::refused);
            Await.until("the echo server sees its connection closed", Duration.ofSeconds(5),
                    () -> echoConnections.stream().allMatch(Socket::isClosed));
        }
    }

    /** Whether a new connection is refused (one accepted in the moment the kernel takes to close is reset). */
    private boolean refused() {
        try (Socket socket = connect()) {
            read(socket, 1, 1_000);
            return false;
        } catch (ConnectException expected) {
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), proxy.port()), 2_000);
        return socket;
    }

    private static String roundTrip(Socket client, String text, int timeoutMillis) throws IOException {
        send(client, text);
        return read(client, text.length(), timeoutMillis);
    }

    private static void send(Socket client, String text) throws IOException {
        OutputStream out = client.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static String read(Socket client, int length, int timeoutMillis) throws IOException {
        client.setSoTimeout(timeoutMillis);
        byte[] bytes = client.getInputStream().readNBytes(length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private void acceptEchoConnections() {
        while (!echo.isClosed()) {
            try {
                Socket socket = echo.accept();
                echoConnections.add(socket);
                Thread worker = new Thread(() -> echoAll(socket), "echo-worker");
                worker.setDaemon(true);
                worker.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void echoAll(Socket socket) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            byte[] buffer = new byte[4096];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException ignored) {
            // the connection was reset or closed: the test asserts what the client saw
        }
    }
}
