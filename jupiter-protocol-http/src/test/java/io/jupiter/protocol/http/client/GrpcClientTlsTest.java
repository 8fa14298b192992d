package io.jupiter.protocol.http.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.StringValue;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.TimeoutException;
import io.jupiter.testkit.TestCertificates;
import io.jupiter.transport.TlsConfig;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Jupiter proxy calling grpc-java's own server over TLS ({@code GrpcClientProtocol.Builder.tls}): h2 by ALPN, the
 * server verified against the trust file and its host name, a client certificate when the server requires one, and
 * a clear, prompt failure when the server cannot be trusted or does not speak h2.
 */
class GrpcClientTlsTest {

    /** Long enough that a call failing well before it proves the failure did not wait for the deadline. */
    private static final int TIMEOUT_MILLIS = 60_000;

    @TempDir
    static Path certDir;
    private static TestCertificates certs;

    @BeforeAll
    static void certificates() throws IOException {
        assumeTrue(TestCertificates.opensslAvailable(), TestCertificates.SKIP_MESSAGE);
        certs = TestCertificates.create(certDir);
    }

    private static SslContext serverTls(Path cert, Path key, boolean requireClientCert) throws IOException {
        var builder = GrpcSslContexts.forServer(cert.toFile(), key.toFile());
        if (requireClientCert) {
            builder.trustManager(certs.caCert().toFile()).clientAuth(ClientAuth.REQUIRE);
        }
        return builder.build();
    }

    private static GrpcClientProtocol grpc(TlsConfig tls) {
        return GrpcClientProtocol.builder().methodNames(GrpcClientProtocol.UPPER_CAMEL).tls(tls).build();
    }

    private static Echo proxy(JupiterClient client, GrpcClientProtocol grpc, String address) {
        return client.proxy(Echo.class).name(EchoServer.SERVICE).protocol(grpc).address(address)
                .timeoutMillis(TIMEOUT_MILLIS).build();
    }

    @Test
    void callsOverTlsWithTheServersHostNameVerified() throws Exception {
        TlsConfig tls = TlsConfig.builder().trust(certs.caCert()).provider(TlsConfig.Provider.JDK).build();
        try (EchoServer server = new EchoServer("a", false, serverTls(certs.serverCert(), certs.serverKey(), false));
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = proxy(client, grpc(tls), server.address());
            assertThat(echo.echo(StringValue.of("tls")).getValue()).isEqualTo("a:tls");
            assertThat(echo.echoAsync(StringValue.of("later")).get(30, TimeUnit.SECONDS).getValue())
                    .isEqualTo("a:later");
            assertThat(server.calls).hasValue(2);
        }
        // A certificate of the trusted CA for another host (example.com): refused by hostname verification.
        try (EchoServer server = new EchoServer("b", false,
                serverTls(certs.wrongHostCert(), certs.wrongHostKey(), false));
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = proxy(client, grpc(tls), server.address());
            assertThatThrownBy(() -> echo.echo(StringValue.of("x")))
                    .isInstanceOf(ConnectionException.class)
                    .hasMessageContaining("no gRPC connection to")
                    .hasMessageContaining("TLS handshake failed");
            assertThat(server.calls).hasValue(0);
        }
    }

    @Test
    void mutualTlsCallsPassWithAClientCertificateOnly() throws Exception {
        try (EchoServer server = new EchoServer("m", false, serverTls(certs.serverCert(), certs.serverKey(), true));
             JupiterClient client = JupiterClient.builder().build()) {
            TlsConfig without = TlsConfig.builder().trust(certs.caCert()).build();
            Echo anonymous = proxy(client, grpc(without), server.address());
            // TLS 1.3: the client's handshake ends before the server refuses its missing certificate, so the
            // refusal may come as the handshake's failure or as the connection closing under the first call.
            assertThatThrownBy(() -> anonymous.echo(StringValue.of("x")))
                    .isInstanceOf(ConnectionException.class)
                    .hasMessageMatching("(?s).*(certificate|TLS).*");
            assertThat(server.calls).hasValue(0);

            TlsConfig with = TlsConfig.builder().trust(certs.caCert())
                    .keyPair(certs.clientCert(), certs.clientKey()).build();
            Echo known = proxy(client, grpc(with), server.address());
            assertThat(known.echo(StringValue.of("mtls")).getValue()).isEqualTo("m:mtls");
            assertThat(server.calls).hasValue(1);
        }
    }

    @Test
    void anUntrustedServerFailsTheCallAtOnceWithTheReason() throws Exception {
        // The server's certificate chains to another CA than the one the client trusts.
        try (EchoServer server = new EchoServer("u", false,
                serverTls(certs.otherServerCert(), certs.otherServerKey(), false));
             JupiterClient client = JupiterClient.builder().build()) {
            Echo echo = proxy(client, grpc(TlsConfig.builder().trust(certs.caCert()).build()), server.address());
            for (int i = 0; i < 3; i++) { // each call ends with the reason, none waits for its 60 s timeout
                assertThatThrownBy(() -> echo.echo(StringValue.of("x")))
                        .isInstanceOfSatisfying(ConnectionException.class, e -> assertThat(e)
                                .isNotInstanceOf(TimeoutException.class)
                                .hasMessageContaining("no gRPC connection to /127.0.0.1:")
                                .hasMessageContaining("TLS handshake failed")
                                .hasMessageContaining("certification path"));
            }
            assertThat(server.calls).hasValue(0);
        }
    }

    @Test
    void aTlsServerThatDoesNotSelectH2IsRefused() throws Exception {
        // Netty's TLS server without ALPN: the handshake succeeds, with no application protocol chosen.
        var plain = SslContextBuilder
                .forServer(certs.serverCert().toFile(), certs.serverKey().toFile()).build();
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel listener = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel channel) {
                            channel.pipeline().addLast(plain.newHandler(channel.alloc()));
                        }
                    }).bind("127.0.0.1", 0).sync().channel();
            int port = ((InetSocketAddress) listener.localAddress()).getPort();
            try (JupiterClient client = JupiterClient.builder().build()) {
                Echo echo = proxy(client, grpc(TlsConfig.builder().trust(certs.caCert()).build()),
                        "127.0.0.1:" + port);
                assertThatThrownBy(() -> echo.echo(StringValue.of("x")))
                        .isInstanceOf(RpcException.class)
                        .hasMessageContaining("the server did not select h2 by ALPN (selected: none)");
            }
            listener.close().sync();
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }
}
