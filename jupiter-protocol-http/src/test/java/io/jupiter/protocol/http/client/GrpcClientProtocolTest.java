package io.jupiter.protocol.http.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.jupiter.protocol.http.Greeter;
import io.jupiter.protocol.http.HttpProtocols;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.balance.LoadBalancerType;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.rpc.cluster.HedgingPolicy;
import io.jupiter.rpc.context.RpcContext;
import io.jupiter.rpc.exception.BadRequestException;
import io.jupiter.rpc.exception.RemoteServiceException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.ServiceNotFoundException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.rpc.internal.StatusTable;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A Jupiter proxy calling grpc-java's own servers (and a Jupiter provider's gRPC) on 127.0.0.1. */
class GrpcClientProtocolTest {

    private static GrpcClientProtocol grpc() {
        return GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL).build();
    }

    @Test
    void callsUnaryMethodsSyncAndAsync() throws Exception {
        try (EchoServer server = new EchoServer("a");
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc())
                    .address(server.address()).timeoutMillis(10_000).build();
            assertThat(echo.echo(StringValue.of("Ada")).getValue()).isEqualTo("a:Ada");
            for (int i = 0; i < 50; i++) { // many calls, one HTTP/2 connection
                assertThat(echo.echo(StringValue.of("n" + i)).getValue()).isEqualTo("a:n" + i);
            }
            assertThat(echo.echoAsync(StringValue.of("later")).get(10, TimeUnit.SECONDS).getValue())
                    .isEqualTo("a:later");
            // The call's timeout went out as grpc-timeout: the server saw a deadline within it.
            assertThat(server.deadlinesMillis).allSatisfy(left -> assertThat(left).isBetween(0L, 10_000L));
        }
    }

    @Test
    void anErrorStatusReachesTheCallerWithTheServersMessage() throws Exception {
        try (EchoServer server = new EchoServer("a");
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc())
                    .address(server.address()).timeoutMillis(10_000).build();
            // PERMISSION_DENIED is a refusal of the caller: the method did not run (GrpcStatuses).
            assertThatThrownBy(() -> echo.deny(StringValue.of("bob")))
                    .isInstanceOfSatisfying(BadRequestException.class, e -> {
                        assertThat(e.status()).isEqualTo(StatusTable.BAD_REQUEST.status());
                        assertThat(e.isSafeToRetry()).isTrue();
                        assertThat(e).hasMessageContaining("grpc-status 7 PERMISSION_DENIED: no entry for bob (é)");
                    });
            assertThatThrownBy(() -> echo.missing(StringValue.of("x")))
                    .isInstanceOf(ServiceNotFoundException.class)
                    .hasMessageContaining("grpc-status 12 UNIMPLEMENTED")
                    .hasMessageContaining("/test.Echo/Missing")
                    .hasMessageContaining("Method not found: test.Echo/Missing");
        }
    }

    @Test
    void aDeadlineThatPassesFailsTheCallWithATimeout() throws Exception {
        try (EchoServer server = new EchoServer("a");
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc())
                    .address(server.address()).timeoutMillis(10_000).methodTimeoutMillis("hang", 300).build();
            assertThat(echo.echo(StringValue.of("warm")).getValue()).isEqualTo("a:warm");
            long start = System.nanoTime();
            assertThatThrownBy(() -> echo.hang(Int64Value.of(1)))
                    .isInstanceOfSatisfying(TimeoutException.class, e -> assertThat(e.status())
                            .isIn(StatusTable.SERVER_TIMEOUT.status(), StatusTable.CLIENT_TIMEOUT.status()));
            // Ended by its deadline, not by the proxy's 10 s: a generous bound for a busy machine.
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(8_000);
            assertThat(server.deadlinesMillis.get(server.deadlinesMillis.size() - 1)).isBetween(0L, 300L);
            // The connection still serves calls.
            assertThat(echo.echo(StringValue.of("after")).getValue()).isEqualTo("a:after");
        }
    }

    @Test
    void attachmentsArriveAsMetadata() throws Exception {
        try (EchoServer server = new EchoServer("a");
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc())
                    .address(server.address()).timeoutMillis(10_000).build();
            try (RpcContext.Scope tenant = RpcContext.attach("tenant", "acme")) {
                assertThat(echo.echo(StringValue.of("Ada")).getValue()).isEqualTo("a:Ada tenant=acme");
            }
            assertThat(echo.echo(StringValue.of("Ada")).getValue()).isEqualTo("a:Ada");
            // Binary metadata (a name ending in -bin): the attachment is the base64 of the bytes.
            String bytes = Base64.getEncoder().encodeToString(new byte[] {0, 1, 2, (byte) 0xff});
            try (RpcContext.Scope trace = RpcContext.attach("trace-bin", bytes)) {
                assertThat(echo.echo(StringValue.of("Ada")).getValue()).isEqualTo("a:Ada trace=[0, 1, 2, -1]");
            }
            try (RpcContext.Scope trace = RpcContext.attach("trace-bin", "not base64!")) {
                assertThatThrownBy(() -> echo.echo(StringValue.of("Ada"))).isInstanceOf(RpcException.class)
                        .hasMessageContaining("the base64 of the bytes");
            }
        }
    }

    @Test
    void balancesOverTwoServersAndKeepsGoingWhenOneDies() throws Exception {
        EchoServer a = new EchoServer("a");
        try (EchoServer b = new EchoServer("b");
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc())
                    .address(a.address() + "," + b.address()).loadBalancer(LoadBalancerType.ROUND_ROBIN)
                    .cluster(ClusterStrategy.failOver(2)).idempotent("echo").timeoutMillis(10_000).build();
            Set<String> answeredBy = new HashSet<>();
            for (int i = 0; i < 40; i++) {
                answeredBy.add(echo.echo(StringValue.of("x")).getValue());
            }
            assertThat(answeredBy).containsExactlyInAnyOrder("a:x", "b:x");
            assertThat(a.calls.get()).isPositive();
            assertThat(b.calls.get()).isPositive();

            a.close();
            int before = b.calls.get();
            for (int i = 0; i < 40; i++) {
                assertThat(echo.echo(StringValue.of("y")).getValue()).isEqualTo("b:y");
            }
            assertThat(b.calls.get() - before).isEqualTo(40);
        } finally {
            a.close();
        }
    }

    @Test
    void hedgingGoesAroundAStuckServerAndResetsTheLosingAttempts() throws Exception {
        try (EchoServer stuck = new EchoServer("stuck", true);
             EchoServer b = new EchoServer("b");
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc())
                    .address(stuck.address() + "," + b.address()).loadBalancer(LoadBalancerType.ROUND_ROBIN)
                    .idempotent("echo").hedging(HedgingPolicy.of(50, 2)).timeoutMillis(10_000).build();
            for (int i = 0; i < 20; i++) {
                assertThat(echo.echo(StringValue.of("x")).getValue()).isEqualTo("b:x");
            }
            assertThat(stuck.calls.get()).isPositive();
            // Each attempt the stuck server got lost to the hedge and was reset (RST_STREAM), not left to its deadline.
            Await.until("the losing attempts reset", Duration.ofSeconds(10),
                    () -> stuck.cancelled.get() == stuck.calls.get());
        }
    }

    @Test
    void callsAJupiterProvidersGrpc() throws Exception {
        JupiterServer server = JupiterServer.builder().host("127.0.0.1").port(0)
                .protocols(HttpProtocols.httpAndGrpc()).build();
        server.register(new HelloImpl(), Hello.class);
        int port = server.start().getPort();
        try (JupiterClient client = JupiterClient.builder().build()) {
            Hello hello = client.proxy(Hello.class).protocol(GrpcClientProtocol.builder().build())
                    .address("127.0.0.1", port).timeoutMillis(10_000).build();
            try (RpcContext.Scope tenant = RpcContext.attach("tenant", "acme")) {
                assertThat(hello.sayHello(StringValue.of("Ada")).getValue()).isEqualTo("Hello, Ada of acme");
            }
            assertThatThrownBy(() -> hello.fail(StringValue.of("bad input")))
                    .isInstanceOf(RemoteServiceException.class).hasMessageContaining("bad input");
        } finally {
            server.close();
        }
    }

    @Test
    void refusesAnInterfaceWhoseMethodsAreNotOfProtobufMessages() {
        try (JupiterClient client = JupiterClient.builder().build()) {
            assertThatThrownBy(() -> client.proxy(Greeter.class).protocol(grpc()).address("127.0.0.1", 9).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Greeter.plain cannot be called over gRPC");
        }
    }
}
