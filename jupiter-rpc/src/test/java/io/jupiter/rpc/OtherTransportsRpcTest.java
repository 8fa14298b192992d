package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.rpc.exception.ServerErrorException;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.OwnThreads;
import io.jupiter.transport.InProcessAddress;
import io.jupiter.transport.TransportAddresses;
import io.netty.channel.epoll.Epoll;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * RPC end to end over the transports other than TCP: a Unix domain socket and in process. The same server, client,
 * serializers and pipeline as over TCP ({@link RpcEndToEndTest}); only the address differs.
 */
class OtherTransportsRpcTest {

    private static final AtomicInteger names = new AtomicInteger();

    enum Kind { UNIX_SOCKET, IN_PROCESS }

    @TempDir
    Path dir;

    private JupiterServer server;
    private JupiterClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** Starts a server of {@code kind} and a client; returns the address consumers call. */
    private String start(Kind kind) {
        JupiterServer.Builder builder = JupiterServer.builder().serializers(SerializerType.values());
        if (kind == Kind.UNIX_SOCKET) {
            assumeTrue(Epoll.isAvailable(), () -> "native epoll is unavailable, Unix domain socket RPC skipped: "
                    + Epoll.unavailabilityCause());
            builder.unixSocket(dir.resolve("jupiter.sock"));
        } else {
            builder.inProcess("rpc-test-" + names.incrementAndGet());
        }
        server = builder.build();
        server.register(new EchoServiceImpl());
        assertThat(server.start()).as("no TCP address").isNull();
        assertThat(server.localAddress()).isNull();
        client = JupiterClient.builder().appName("other-transports").build();
        return TransportAddresses.format(server.boundAddress());
    }

    private EchoService proxy(String address, InvokeType type) {
        return client.proxy(EchoService.class).address(address).invokeType(type).timeoutMillis(10_000).build();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void callsOfEveryKindWork(Kind kind) throws Exception {
        String address = start(kind);
        assertThat(address).startsWith(kind == Kind.UNIX_SOCKET ? "unix:/" : "inprocess:rpc-test-");
        assertThat(server.boundAddress()).isInstanceOf(kind == Kind.UNIX_SOCKET ? UnixDomainSocketAddress.class
                : InProcessAddress.class);

        EchoService echo = proxy(address, InvokeType.SYNC);
        assertThat(echo.hello("jupiter")).isEqualTo("hello, jupiter");
        assertThat(echo.add(40, 2)).isEqualTo(42);
        String big = "x".repeat(1 << 20);
        assertThat(echo.hello(big)).hasSize(big.length() + 7);
        assertThat(echo.helloLater("world").get(10, TimeUnit.SECONDS)).isEqualTo("later, world");
        CompletableFuture<String> failing = echo.failLater("nope");
        assertThatThrownBy(() -> failing.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ServerErrorException.class).hasMessageContaining("nope");

        assertThat(server.connectionCount()).isEqualTo(1);
        ConsumedService consumed = client.consumedServices().get(0);
        assertThat(consumed.targets()).singleElement().satisfies(target -> {
            assertThat(TransportAddresses.format(target.address())).isEqualTo(address);
            assertThat(target.activeConnections()).isEqualTo(1);
        });
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void manyConcurrentCallsAllAnswered(Kind kind) throws Exception {
        EchoService echo = proxy(start(kind), InvokeType.SYNC);
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

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aRestartedServerIsCalledAgain(Kind kind) throws Exception {
        String address = start(kind);
        EchoService echo = proxy(address, InvokeType.SYNC);
        assertThat(echo.ping()).isEqualTo("pong");

        server.close();
        JupiterServer.Builder again = JupiterServer.builder();
        if (kind == Kind.UNIX_SOCKET) {
            again.unixSocket(((UnixDomainSocketAddress) server.boundAddress()).getPath());
        } else {
            again.inProcess(((InProcessAddress) server.boundAddress()).name());
        }
        server = again.build();
        server.register(new EchoServiceImpl());
        server.start();
        Await.until("the client reconnected", Duration.ofSeconds(20), () -> server.connectionCount() == 1);
        assertThat(echo.ping()).isEqualTo("pong");
    }

    @Test
    void aServerOffTcpCannotPublishToARegistry() {
        assertThatThrownBy(() -> JupiterServer.builder().inProcess("unpublishable")
                .registry("default://127.0.0.1:20001").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("inprocess:unpublishable").hasMessageContaining("a registry publishes host:port");
    }

    @Test
    void aUnixSocketServerReplacesAStaleFileOnly() throws Exception {
        assumeTrue(Epoll.isAvailable(), "native epoll is unavailable");
        Path taken = Files.writeString(dir.resolve("not-a-socket"), "keep me");
        server = JupiterServer.builder().unixSocket(taken).build();
        assertThatThrownBy(server::start).hasMessageContaining("not a socket");
        assertThat(taken).hasContent("keep me");
    }
}
