package io.jupiter.protocol.http.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.FaultProxy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The gRPC consumer's keep-alive pings ({@code GrpcClientProtocol.Builder.keepAlive}) against grpc-java's own server
 * through a real proxy: a link that stops carrying bytes is found within the keep-alive time and timeout, its call
 * fails then (not at its 30 s deadline) saying why, and calls go on over a new connection; a server that finds the
 * pings too frequent ({@code too_many_pings}) makes the client ping half as often.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrpcClientKeepAliveTest {

    @Test
    void aLinkThatGoesSilentIsClosedByKeepAliveAndItsCallFailsBeforeItsDeadline() throws Exception {
        try (EchoServer server = new EchoServer("alive");
             FaultProxy proxy = FaultProxy.start(port(server));
             JupiterClient client = JupiterClient.builder().build()) {
            GrpcClientProtocol grpc = GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL)
                    .keepAlive(Duration.ofMillis(300), Duration.ofMillis(300)).build();
            Echo echo = client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc)
                    .address("127.0.0.1:" + proxy.port()).timeoutMillis(30_000).build();
            assertThat(echo.echo(StringValue.of("before")).getValue()).isEqualTo("alive:before");

            proxy.blackholeOneOpenConnection();
            long start = System.nanoTime();
            assertThatThrownBy(() -> echo.echo(StringValue.of("into the void")))
                    .isInstanceOf(RpcException.class).isNotInstanceOf(TimeoutException.class)
                    .hasMessageContaining("keep-alive PING");
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start))
                    .as("seconds until the call failed (its deadline: 30)").isLessThan(20);

            Await.until("a call over a new connection", Duration.ofSeconds(30), () -> {
                try {
                    return echo.echo(StringValue.of("after")).getValue().equals("alive:after");
                } catch (RpcException notYet) {
                    return false;
                }
            });
            assertThat(proxy.acceptedConnections()).as("connections through the proxy").isEqualTo(2);
        }
    }

    @Test
    void aServerThatSaysTooManyPingsMakesTheClientPingHalfAsOften() throws Exception {
        try (EchoServer server = new EchoServer("strict");
             JupiterClient client = JupiterClient.builder().build()) {
            GrpcClientProtocol grpc = GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL)
                    .keepAlive(Duration.ofMillis(200), Duration.ofSeconds(5)).build();
            Echo echo = client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc)
                    .address(server.address()).timeoutMillis(20_000).build();
            // A call the server never answers: the pings that go out meanwhile find no data between them, which
            // gRPC's default server policy (a ping per 5 minutes) counts as strikes; the third closes the connection.
            assertThatThrownBy(() -> echo.hang(Int64Value.of(1))).isInstanceOf(RpcException.class)
                    .isNotInstanceOf(TimeoutException.class)
                    .hasMessageContaining("GOAWAY ENHANCE_YOUR_CALM too_many_pings");
            assertThat(grpc.keepAliveMillis()).as("the keep-alive time after too_many_pings").isEqualTo(400);
            assertThat(echo.echo(StringValue.of("again")).getValue()).isEqualTo("strict:again");
        }
    }

    private static int port(EchoServer server) {
        String address = server.address();
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }
}
