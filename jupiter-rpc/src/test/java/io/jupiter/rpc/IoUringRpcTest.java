package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.rpc.exception.ServerErrorException;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.OwnThreads;
import io.jupiter.transport.IoTransport;
import io.jupiter.transport.TransportAddresses;
import io.jupiter.transport.TransportConfig;
import io.netty.channel.uring.IoUring;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RPC end to end with {@code transport(IO_URING)} on the server and the client: TCP on 127.0.0.1 and a Unix domain
 * socket. Skipped, with Netty's reason, where the kernel does not allow io_uring.
 */
class IoUringRpcTest {

    @TempDir
    Path dir;

    private JupiterServer server;
    private JupiterClient client;

    @BeforeAll
    static void needsIoUring() {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring is unavailable here, io_uring RPC tests skipped: "
                + IoUring.unavailabilityCause());
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static TransportConfig.Builder ioUring(String prefix) {
        return TransportConfig.builder().transport(IoTransport.IO_URING).threadNamePrefix(prefix).ioThreads(2);
    }

    private EchoService start(JupiterServer.Builder builder) {
        server = builder.serializers(SerializerType.values())
                .transportConfig(ioUring("uring-acceptor").writerIdleMillis(0).build()).build();
        server.register(new EchoServiceImpl());
        server.start();
        client = JupiterClient.builder().appName("io-uring")
                .transportConfig(ioUring("uring-connector").readerIdleMillis(0).build()).build();
        String address = TransportAddresses.format(server.boundAddress());
        return client.proxy(EchoService.class).address(address).invokeType(InvokeType.SYNC).timeoutMillis(10_000)
                .build();
    }

    @Test
    void callsOverTcpOnLoopback() throws Exception {
        EchoService echo = start(JupiterServer.builder().host("127.0.0.1").port(0));

        assertThat(echo.hello("io_uring")).isEqualTo("hello, io_uring");
        assertThat(echo.add(40, 2)).isEqualTo(42);
        String big = "x".repeat(1 << 20);
        assertThat(echo.hello(big)).hasSize(big.length() + 7);
        assertThat(echo.helloLater("world").get(10, TimeUnit.SECONDS)).isEqualTo("later, world");
        CompletableFuture<String> failing = echo.failLater("nope");
        assertThatThrownBy(() -> failing.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ServerErrorException.class).hasMessageContaining("nope");
        assertThat(server.connectionCount()).isEqualTo(1);
        assertThat(threadsNamed("uring-acceptor")).isNotEmpty();
        assertThat(threadsNamed("uring-connector")).isNotEmpty();
    }

    @Test
    void manyConcurrentCallsAllAnswered() throws Exception {
        EchoService echo = start(JupiterServer.builder().host("127.0.0.1").port(0));
        int threads = 8;
        int perThread = 250;
        List<CompletableFuture<Integer>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int base = t * perThread;
            workers.add(CompletableFuture.supplyAsync(() -> {
                int ok = 0;
                for (int i = 0; i < perThread; i++) {
                    if (echo.add(base, i) == base + i) {
                        ok++;
                    }
                }
                return ok;
            }, OwnThreads.EXECUTOR));
        }
        int answered = 0;
        for (CompletableFuture<Integer> worker : workers) {
            answered += worker.get(60, TimeUnit.SECONDS);
        }
        assertThat(answered).isEqualTo(threads * perThread);
    }

    @Test
    void callsOverAUnixDomainSocket() {
        EchoService echo = start(JupiterServer.builder().unixSocket(dir.resolve("uring.sock")));

        assertThat(echo.hello("unix")).isEqualTo("hello, unix");
        assertThat(echo.add(1, 2)).isEqualTo(3);
    }

    private static List<String> threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(name -> name.startsWith(prefix + "-")).toList();
    }
}
