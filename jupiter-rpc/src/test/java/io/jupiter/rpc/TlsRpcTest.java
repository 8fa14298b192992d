package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.rpc.exception.ConnectionException;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import io.jupiter.rpc.security.AuthorizationRules;
import io.jupiter.rpc.security.CallerIdentifier;
import io.jupiter.rpc.security.TokenAuthenticator;
import io.jupiter.testkit.TestCertificates;
import io.jupiter.transport.Status;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Calls over TLS between a {@link JupiterServer} and a {@link JupiterClient}, each given a {@link TlsConfig}. */
class TlsRpcTest {

    @TempDir
    static Path certDir;
    private static TestCertificates certs;

    private JupiterServer server;
    private JupiterClient client;

    @BeforeAll
    static void makeCertificates() throws IOException {
        assumeTrue(TestCertificates.opensslAvailable(), TestCertificates.SKIP_MESSAGE);
        certs = TestCertificates.create(certDir);
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

    @Test
    void callsFlowOverMutualTls() {
        TlsConfig serverTls = TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey())
                .trust(certs.caCert()).requireClientAuth(true).build();
        int port = startServer(serverTls);
        client = client(TlsConfig.builder().trust(certs.caCert()).keyPair(certs.clientCert(), certs.clientKey())
                .build());
        EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", port).timeoutMillis(10_000).build();
        for (int i = 0; i < 50; i++) {
            assertThat(echo.hello("tls-" + i)).isEqualTo("hello, tls-" + i);
        }
    }

    @Test
    void theClientCertificateNamesTheCallerForAuthorizationAndInterceptors() {
        TlsConfig serverTls = TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey())
                .trust(certs.caCert()).requireClientAuth(true).build();
        ServiceKey echoKey = ServiceKey.of(EchoService.class, "1.0.0");
        List<String> seen = new CopyOnWriteArrayList<>();
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().threadNamePrefix("tls-rpc-acceptor").tls(serverTls).build())
                .callerIdentifier(CallerIdentifier.CLIENT_CERTIFICATE)
                .authorizer(AuthorizationRules.builder().allow(echoKey, "hello", "client").build())
                .interceptor(new Interceptor() {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                        seen.add(invocation.caller().name());
                    }
                })
                .build();
        server.register(new EchoServiceImpl());
        int port = server.start().getPort();

        // CN=client: allowed.
        client = client(TlsConfig.builder().trust(certs.caCert()).keyPair(certs.clientCert(), certs.clientKey())
                .build());
        EchoService asClient = client.proxy(EchoService.class).address("127.0.0.1", port).timeoutMillis(10_000)
                .build();
        assertThat(asClient.hello("me")).isEqualTo("hello, me");
        assertThat(seen).containsExactly("client");

        // CN=localhost, a certificate of the same CA that may serve as a client's: verified, but not allowed.
        try (JupiterClient other = client(TlsConfig.builder().trust(certs.caCert())
                .keyPair(certs.serverCert(), certs.serverKey()).build())) {
            EchoService asOther = other.proxy(EchoService.class).address("127.0.0.1", port).timeoutMillis(10_000)
                    .build();
            assertThatThrownBy(() -> asOther.hello("me")).isInstanceOfSatisfying(RpcException.class, e -> {
                assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                assertThat(e.getMessage()).contains("caller localhost is not authorized");
            });
        }
        assertThat(seen).containsExactly("client");
    }

    @Test
    void aTlsClientOnAPlaintextServerFailsFastWithAConnectionException() {
        int port = startServer(null);
        client = client(TlsConfig.builder().trust(certs.caCert()).build());
        EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", port).timeoutMillis(30_000).build();
        long start = System.nanoTime();
        assertThatThrownBy(echo::ping).isInstanceOfSatisfying(ConnectionException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.CLIENT_ERROR);
            assertThat(e.getMessage()).contains("no TLS connection to /127.0.0.1:" + port)
                    .contains("closed the connection during the TLS handshake");
        });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aClientThatDoesNotTrustTheServerFailsFast() {
        int port = startServer(TlsConfig.builder().keyPair(certs.otherServerCert(), certs.otherServerKey()).build());
        client = client(TlsConfig.builder().trust(certs.caCert()).build());
        EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", port).timeoutMillis(30_000).build();
        long start = System.nanoTime();
        assertThatThrownBy(echo::ping).isInstanceOf(ConnectionException.class)
                .hasMessageContaining("no TLS connection to");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aCallerTokenSentOverTlsNamesTheCaller() {
        // TLS without client certificates: the token, kept secret by the encryption, is what names the caller.
        TlsConfig serverTls = TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey()).build();
        ServiceKey echoKey = ServiceKey.of(EchoService.class, "1.0.0");
        List<String> seen = new CopyOnWriteArrayList<>();
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().threadNamePrefix("tls-rpc-acceptor").tls(serverTls).build())
                .tokenAuthenticator(TokenAuthenticator.of(Map.of("s3cret-token", "shop")))
                .authorizer(AuthorizationRules.builder().allow(echoKey, "hello", "shop").build())
                .interceptor(new Interceptor() {
                    @Override
                    public void beforeInvoke(Invocation invocation) {
                        seen.add(invocation.caller().name());
                    }
                })
                .build();
        server.register(new EchoServiceImpl());
        int port = server.start().getPort();

        client = JupiterClient.builder().transportConfig(TransportConfig.builder().threadNamePrefix("tls-rpc-connector")
                .readerIdleMillis(0).tls(TlsConfig.builder().trust(certs.caCert()).build()).build())
                .callerToken("s3cret-token").build();
        EchoService echo = client.proxy(EchoService.class).address("127.0.0.1", port).timeoutMillis(10_000).build();
        assertThat(echo.hello("tls")).isEqualTo("hello, tls");
        assertThat(seen).containsExactly("shop");

        try (JupiterClient noToken = client(TlsConfig.builder().trust(certs.caCert()).build())) {
            EchoService anonymous = noToken.proxy(EchoService.class).address("127.0.0.1", port)
                    .timeoutMillis(10_000).build();
            assertThatThrownBy(() -> anonymous.hello("x")).isInstanceOfSatisfying(RpcException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.BAD_REQUEST))
                    .hasMessageContaining("caller token missing");
        }
        assertThat(seen).containsExactly("shop");
    }

    private int startServer(TlsConfig tls) {
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().threadNamePrefix("tls-rpc-acceptor").tls(tls).build())
                .build();
        server.register(new EchoServiceImpl());
        return server.start().getPort();
    }

    private static JupiterClient client(TlsConfig tls) {
        return JupiterClient.builder().transportConfig(TransportConfig.builder().threadNamePrefix("tls-rpc-connector")
                .readerIdleMillis(0).tls(tls).build()).build();
    }
}
