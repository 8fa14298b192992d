package io.jupiter.protocol.http.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.exception.PayloadTooLargeException;
import io.jupiter.rpc.exception.RequestNotSentException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.testkit.Await;
import io.jupiter.transport.Connection;
import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The caps of the gRPC consumer (message size, header list, streams per connection) and its connections' end. */
class GrpcClientLimitsTest {

    private static Echo proxy(JupiterClient client, EchoServer server, GrpcClientProtocol.Builder protocol) {
        return client.proxy(Echo.class).name(EchoServer.SERVICE)
                .protocol(protocol.methodNames(GrpcClientProtocol.UPPER_CAMEL).build())
                .address(server.address()).timeoutMillis(10_000).methodTimeoutMillis("hang", 1000).build();
    }

    @Test
    void aResponseAboveTheMessageCapFailsTheCallAndTheConnectionGoesOn() throws Exception {
        try (EchoServer server = new EchoServer("a");
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = proxy(client, server, GrpcClientProtocol.builder().maxMessageBytes(10_000));
            assertThat(echo.big(Int64Value.of(9_000)).getValue()).hasSize(9_000);
            assertThatThrownBy(() -> echo.big(Int64Value.of(200_000)))
                    .isInstanceOf(RpcException.class)
                    .hasMessageContaining("above the 10000-byte message cap");
            assertThat(echo.echo(StringValue.of("after")).getValue()).isEqualTo("a:after");
        }
    }

    @Test
    void aRequestAboveTheMessageCapIsNotSent() throws Exception {
        try (EchoServer server = new EchoServer("a");
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = proxy(client, server, GrpcClientProtocol.builder().maxMessageBytes(1_000));
            assertThat(echo.echo(StringValue.of("small")).getValue()).isEqualTo("a:small");
            int before = server.calls.get();
            assertThatThrownBy(() -> echo.echo(StringValue.of("x".repeat(5_000))))
                    .isInstanceOf(PayloadTooLargeException.class)
                    .hasMessageContaining("above the 1000-byte message cap: not sent");
            assertThat(server.calls.get()).isEqualTo(before);
        }
    }

    @Test
    void trailersAboveTheHeaderListCapFailTheCallNotTheClient() throws Exception {
        try (EchoServer server = new EchoServer("a");
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = proxy(client, server, GrpcClientProtocol.builder().maxHeaderListBytes(1024));
            assertThat(echo.echo(StringValue.of("small")).getValue()).isEqualTo("a:small");
            // grpc-message of 4 KB in the trailers: above the 1 KB header list this client takes.
            assertThatThrownBy(() -> echo.deny(StringValue.of("y".repeat(4_000))))
                    .isInstanceOf(RpcException.class);
            assertThat(echo.echo(StringValue.of("after")).getValue()).isEqualTo("a:after");
        }
    }

    @Test
    void callsBeyondTheStreamCapAreRefusedNotSent() throws Exception {
        try (EchoServer server = new EchoServer("a");
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = proxy(client, server, GrpcClientProtocol.builder().maxStreams(1));
            assertThat(echo.echo(StringValue.of("warm")).getValue()).isEqualTo("a:warm");
            CompletableFuture<Int64Value> hanging = CompletableFuture.supplyAsync(() -> echo.hang(Int64Value.of(1)));
            Await.until("the hanging call reaches the server", Duration.ofSeconds(10), () -> server.calls.get() >= 2);
            assertThatThrownBy(() -> echo.echo(StringValue.of("second")))
                    .isInstanceOf(RequestNotSentException.class)
                    .hasMessageContaining("the stream cap");
            assertThat(hanging).failsWithin(10, TimeUnit.SECONDS);
            assertThat(echo.echo(StringValue.of("after")).getValue()).isEqualTo("a:after");
        }
    }

    @Test
    void closingTheGroupAndTheProtocolClosesTheConnections() throws Exception {
        try (EchoServer server = new EchoServer("a")) {
            GrpcClientProtocol protocol = GrpcClientProtocol.builder().build();
            String[] hostPort = server.address().split(":");
            GrpcConnectionGroup group = (GrpcConnectionGroup) protocol.connect(
                    new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])), 2);
            try {
                assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
                Await.until("two connections", Duration.ofSeconds(10), () -> group.activeConnections().size() == 2);
                List<Connection> open = group.activeConnections();
                group.close();
                for (Connection connection : open) {
                    Channel channel = ((GrpcConnection) connection).channel();
                    assertThat(channel.closeFuture().await(10, TimeUnit.SECONDS)).isTrue();
                }
                assertThat(group.isAvailable()).isFalse();
                assertThat(group.activeConnections()).isEmpty();
            } finally {
                protocol.close();
            }
        }
    }
}
