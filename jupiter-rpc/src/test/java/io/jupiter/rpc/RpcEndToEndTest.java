package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.rpc.EchoService.Color;
import io.jupiter.rpc.EchoService.Person;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.ServerErrorException;
import io.jupiter.serialization.SerializerType;
import io.jupiter.testkit.OwnThreads;
import io.jupiter.transport.Status;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every serializer, every kind of call, over real sockets on 127.0.0.1. */
class RpcEndToEndTest {

    private static final EchoServiceImpl IMPL = new EchoServiceImpl();
    private static JupiterServer server;
    private static JupiterClient client;
    private static String address;

    @BeforeAll
    static void start() {
        server = JupiterServer.builder().host("127.0.0.1").port(0).serializers(SerializerType.values()).build();
        server.register(IMPL);
        InetSocketAddress bound = server.start();
        address = "127.0.0.1:" + bound.getPort();
        client = JupiterClient.builder().appName("e2e").build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    private static EchoService proxy(SerializerType serializer, InvokeType type) {
        return client.proxy(EchoService.class).address(address).serializer(serializer).invokeType(type)
                .timeoutMillis(10_000).build();
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void syncCallsCarryEveryKindOfValue(SerializerType serializer) {
        EchoService echo = proxy(serializer, InvokeType.SYNC);
        assertThat(echo.hello("jupiter")).isEqualTo("hello, jupiter");
        assertThat(echo.hello("木星 ✓")).isEqualTo("hello, 木星 ✓");
        assertThat(echo.add(40, 2)).isEqualTo(42);
        assertThat(echo.twice(-21L)).isEqualTo(-42L);
        assertThat(echo.ping()).isEqualTo("pong");
        assertThat(echo.nothing()).isNull();
        assertThat(echo.bytes(new byte[] {1, 2, 3})).containsExactly(1, 2, 3);
        assertThat(echo.list(List.of("a", "b"))).containsExactly("a", "b", "!");
        assertThat(echo.map(Map.of("one", 1))).containsEntry("one", 1).containsEntry("size", 1);
        assertThat(echo.decimal(new BigDecimal("1.5"))).isEqualByComparingTo("2.5");
        assertThat(echo.color(Color.RED)).isEqualTo(Color.BLUE);
        Person person = new Person("ada", 36, List.of("math"));
        assertThat(echo.person(person)).isEqualTo(person);
        assertThat(echo.describe(7)).isEqualTo("int:7");
        assertThat(echo.describe("7")).isEqualTo("string:7");
        String big = "x".repeat(1 << 20);
        assertThat(echo.hello(big)).hasSize(big.length() + 7);
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void voidCallsRunOnTheProvider(SerializerType serializer) {
        EchoService echo = proxy(serializer, InvokeType.SYNC);
        echo.touch("k-" + serializer);
        echo.touch("k-" + serializer);
        assertThat(IMPL.touched).containsEntry("k-" + serializer, 2);
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void completableFutureMethodsReturnAtOnce(SerializerType serializer) throws Exception {
        EchoService echo = proxy(serializer, InvokeType.SYNC);
        CompletableFuture<String> future = echo.helloLater("world");
        assertThat(future.get(10, TimeUnit.SECONDS)).isEqualTo("later, world");
        assertThat(future).isInstanceOf(InvokeFuture.class);

        CompletableFuture<String> failing = echo.failLater("nope");
        assertThatThrownBy(() -> failing.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ServerErrorException.class).hasMessageContaining("nope");
        assertThat(((ServerErrorException) catchCause(failing)).status()).isEqualTo(Status.SERVER_ERROR);
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void asyncProxiesHandOverTheirFuture(SerializerType serializer) throws Exception {
        EchoService echo = proxy(serializer, InvokeType.ASYNC);
        assertThat(echo.hello("async")).isNull();
        InvokeFuture<String> hello = InvokeFutureContext.future(String.class);
        assertThat(echo.add(1, 2)).isZero();
        InvokeFuture<Integer> sum = InvokeFutureContext.future(Integer.class);
        CompletableFuture<String> seen = new CompletableFuture<>();
        hello.whenComplete((value, error) -> seen.complete(value + "|" + Thread.currentThread().getName()));
        assertThat(hello.get(10, TimeUnit.SECONDS)).isEqualTo("hello, async");
        assertThat(sum.get(10, TimeUnit.SECONDS)).isEqualTo(3);
        assertThat(seen.get(10, TimeUnit.SECONDS)).startsWith("hello, async|")
                .doesNotContain("jupiter-connector");

        echo.failUnchecked("bad");
        InvokeFuture<String> failed = InvokeFutureContext.future(String.class);
        assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS)).cause()
                .isInstanceOf(RemoteServiceException.class)
                .hasMessage("java.lang.IllegalStateException: bad");
    }

    @ParameterizedTest
    @EnumSource(SerializerType.class)
    void manyConcurrentCallsAllGetTheirOwnAnswer(SerializerType serializer) throws Exception {
        EchoService echo = client.proxy(EchoService.class).address(address).serializer(serializer).connections(3)
                .timeoutMillis(10_000).build();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            workers.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 300; i++) {
                    assertThat(echo.add(thread, i)).isEqualTo(thread + i);
                }
            }, OwnThreads.EXECUTOR));
        }
        CompletableFuture.allOf(workers.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
    }

    private static Throwable catchCause(CompletableFuture<?> future) {
        try {
            future.get(10, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
