package io.jupiter.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.testkit.Await;
import io.jupiter.testkit.OwnThreads;
import io.jupiter.testkit.TestCertificates;
import io.jupiter.testkit.suites.transport.EchoPeer;
import io.jupiter.transport.Acceptor;
import io.jupiter.transport.Connection;
import io.jupiter.transport.ConnectionGroup;
import io.jupiter.transport.Connector;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportConfig;
import io.jupiter.transport.netty.internal.LogCapture;
import io.jupiter.transport.netty.internal.NettyConnection;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TLS and mutual TLS on real sockets on 127.0.0.1, with certificates made by {@code openssl} and {@code openssl
 * s_client} / {@code s_server} as the independent peer.
 */
class TlsTransportTest {

    private static final InetSocketAddress ANY_PORT = new InetSocketAddress("127.0.0.1", 0);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path certDir;
    private static TestCertificates certs;

    private final Deque<AutoCloseable> toClose = new ArrayDeque<>();

    @BeforeAll
    static void makeCertificates() throws IOException {
        assumeTrue(TestCertificates.opensslAvailable(), TestCertificates.SKIP_MESSAGE);
        certs = TestCertificates.create(certDir);
    }

    @AfterEach
    void closeAll() throws Exception {
        while (!toClose.isEmpty()) {
            toClose.pop().close();
        }
    }

    @ParameterizedTest(name = "provider={0}")
    @EnumSource(value = TlsConfig.Provider.class, names = {"OPENSSL", "JDK"})
    void framesFlowOverTls(TlsConfig.Provider provider) throws Exception {
        assumeTrue(provider != TlsConfig.Provider.OPENSSL || OpenSsl.isAvailable(), "OpenSSL not available");
        EchoPeer server = new EchoPeer();
        Acceptor acceptor = acceptor(serverTls().provider(provider).build(), server);
        EchoPeer client = new EchoPeer();
        ConnectionGroup group = connect(clientTls().provider(provider).build(), client, acceptor);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        assertEchoes(group, client, 1, 100);
        assertThat(protocolOf(group.next())).isEqualTo("TLSv1.3");
        assertThat(server.connected).hasSize(1);
    }

    @Test
    void mutualTlsAcceptsAClientCertificateOfTheTrustedCa() throws Exception {
        EchoPeer server = new EchoPeer();
        Acceptor acceptor = acceptor(mutualServerTls(), server);
        EchoPeer client = new EchoPeer();
        ConnectionGroup group = connect(clientTls().keyPair(certs.clientCert(), certs.clientKey()).build(), client,
                acceptor);
        assertThat(group.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        assertEchoes(group, client, 1, 10);
        Connection accepted = server.connected.poll(10, TimeUnit.SECONDS);
        X509Certificate peer = (X509Certificate) ((NettyConnection) accepted).channel().pipeline()
                .get(SslHandler.class).engine().getSession().getPeerCertificates()[0];
        assertThat(peer.getSubjectX500Principal().getName()).isEqualTo("CN=client");
    }

    @Test
    void mutualTlsRefusesAClientWithoutCertificate() throws Exception {
        assertRefusedByMutualTls(clientTls().build());
    }

    @Test
    void mutualTlsRefusesAClientCertificateOfAnotherCa() throws Exception {
        assertRefusedByMutualTls(clientTls().keyPair(certs.otherClientCert(), certs.otherClientKey()).build());
    }

    @Test
    void mutualTlsRefusesAnExpiredClientCertificate() throws Exception {
        assertRefusedByMutualTls(clientTls().keyPair(certs.expiredCert(), certs.expiredKey()).build());
    }

    @Test
    void theClientRefusesAServerCertificateOfAnotherCa() throws Exception {
        EchoPeer server = new EchoPeer();
        Acceptor acceptor = acceptor(TlsConfig.builder().keyPair(certs.otherServerCert(), certs.otherServerKey())
                .build(), server);
        ConnectionGroup group = connect(clientTls().build(), new EchoPeer(), acceptor);
        Await.until("the handshake failed", TIMEOUT, () -> group.handshakeFailure() != null);
        assertThat(group.isAvailable()).isFalse();
        assertThat(group.handshakeFailure().getMessage()).startsWith("no TLS connection to " + acceptor.localAddress());
        assertThat(server.connected).isEmpty();
    }

    @Test
    void aPlaintextClientOnATlsPortIsClosedAtOnceWithOneLine() throws Exception {
        EchoPeer server = new EchoPeer();
        Acceptor acceptor = acceptor(serverTls().build(), server);
        try (LogCapture logs = new LogCapture()) {
            for (int i = 0; i < 3; i++) {
                try (Socket socket = new Socket()) {
                    socket.connect(acceptor.localAddress(), 2000);
                    socket.setSoTimeout(5000);
                    OutputStream out = socket.getOutputStream();
                    ByteBuf frame = EchoPeer.request(UnpooledByteBufAllocator.DEFAULT, 1, "hello");
                    out.write(ByteBufUtil.getBytes(frame));
                    frame.release();
                    out.flush();
                    assertThat(readUntilClosed(socket.getInputStream())).isTrue();
                }
            }
            Await.until("the refusal was logged", TIMEOUT, () -> !logs.lines("WARN").isEmpty());
            assertThat(logs.lines("WARN")).hasSize(1).first().asString().contains("not TLS");
        }
        assertThat(server.connected).isEmpty();
    }

    @Test
    void aTlsClientOnAPlaintextPortReportsTheHandshakeFailure() throws Exception {
        EchoPeer server = new EchoPeer();
        Acceptor acceptor = acceptor(null, server);
        ConnectionGroup group = connect(clientTls().build(), new EchoPeer(), acceptor);
        long start = System.nanoTime();
        Await.until("the handshake failed", TIMEOUT, () -> group.handshakeFailure() != null);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        assertThat(group.isAvailable()).isFalse();
        assertThat(group.handshakeFailure().getMessage()).contains("no TLS connection to").contains("closed");
    }

    @Test
    void opensslClientNegotiatesTls13AndVerifiesTheServer() throws Exception {
        Acceptor acceptor = acceptor(serverTls().build(), new EchoPeer());
        String out = sClient(acceptor, "-CAfile", certs.caCert().toString(), "-verify_return_error",
                "-verify_ip", "127.0.0.1");
        assertThat(out).contains("CONNECTION ESTABLISHED").contains("Protocol version: TLSv1.3")
                .contains("Verification: OK");
    }

    @Test
    void opensslClientMayUseTls12() throws Exception {
        Acceptor acceptor = acceptor(serverTls().build(), new EchoPeer());
        String out = sClient(acceptor, "-CAfile", certs.caCert().toString(), "-tls1_2");
        assertThat(out).contains("CONNECTION ESTABLISHED").contains("Protocol version: TLSv1.2");
    }

    @Test
    void opensslClientWithTls11IsRefused() throws Exception {
        Acceptor acceptor = acceptor(serverTls().build(), new EchoPeer());
        // SECLEVEL=0 lets this openssl offer TLS 1.1 at all, so the refusal is the server's.
        String out = sClient(acceptor, "-CAfile", certs.caCert().toString(), "-tls1_1", "-cipher",
                "DEFAULT@SECLEVEL=0");
        assertThat(out).doesNotContain("CONNECTION ESTABLISHED").containsIgnoringCase("alert");
    }

    @Test
    void opensslClientWithoutCertificateIsRefusedByMutualTls() throws Exception {
        EchoPeer server = new EchoPeer();
        Acceptor acceptor = acceptor(mutualServerTls(), server);
        // TLS 1.2, where the server refuses within the handshake (with 1.3 the client may have finished first).
        String refused = sClient(acceptor, "-CAfile", certs.caCert().toString(), "-tls1_2");
        assertThat(refused).doesNotContain("CONNECTION ESTABLISHED").containsIgnoringCase("alert");
        String accepted = sClient(acceptor, "-CAfile", certs.caCert().toString(), "-cert",
                certs.clientCert().toString(), "-key", certs.clientKey().toString());
        assertThat(accepted).contains("CONNECTION ESTABLISHED");
        assertThat(server.connected.poll(10, TimeUnit.SECONDS)).isNotNull();
    }

    @Test
    void hostnameIsVerifiedAgainstAnOpensslServer() throws Exception {
        int port = freePort();
        Process sServer = sServer(port, certs.wrongHostCert(), certs.wrongHostKey());
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        ConnectionGroup refused = connector(clientTls().build(), new EchoPeer()).connect(address, 1);
        Await.until("the handshake failed", TIMEOUT, () -> refused.handshakeFailure() != null);
        assertThat(refused.handshakeFailure().getMessage()).containsIgnoringCase("subject alternative");
        refused.close();
        ConnectionGroup unchecked = connector(clientTls().verifyHostname(false).build(), new EchoPeer())
                .connect(address, 1);
        assertThat(unchecked.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        assertThat(sServer.isAlive()).isTrue();
    }

    @Test
    void rotatedCertificatesReachNewConnectionsWithNoFailedCall() throws Exception {
        Path dir = Files.createDirectories(certDir.resolve("rotation-" + System.nanoTime()));
        Path cert = dir.resolve("live.crt");
        Path key = dir.resolve("live.key");
        Files.copy(certs.serverCert(), cert);
        Files.copy(certs.serverKey(), key);
        Path next = certs.issueServer("rotated-" + System.nanoTime(), "rotated");
        Path nextKey = next.resolveSibling(next.getFileName().toString().replace(".crt", ".key"));

        EchoPeer server = new EchoPeer();
        Acceptor acceptor = acceptor(TlsConfig.builder().keyPair(cert, key).build(), server);
        EchoPeer client = new EchoPeer();
        Connector connector = connector(clientTls().build(), client);
        ConnectionGroup before = connector.connect(acceptor.localAddress(), 2);
        assertThat(before.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        assertThat(peerCommonName(before)).isEqualTo("CN=localhost");

        // Calls keep flowing on the open connections while the files are replaced (key first, then certificate:
        // a reader in between sees a mismatched pair, refuses it and keeps the old one).
        CompletableFuture<Void> load = CompletableFuture.runAsync(() -> assertEchoes(before, client, 1_000, 400),
                OwnThreads.EXECUTOR);
        replace(nextKey, key);
        // In between, the pair does not match: a new connection still gets the old certificate.
        ConnectionGroup torn = connector.connect(acceptor.localAddress(), 1);
        assertThat(torn.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        assertThat(peerCommonName(torn)).isEqualTo("CN=localhost");
        replace(next, cert);
        ConnectionGroup after = connector.connect(acceptor.localAddress(), 1);
        assertThat(after.awaitAvailable(10, TimeUnit.SECONDS)).isTrue();
        assertThat(peerCommonName(after)).isEqualTo("CN=rotated");
        load.get(30, TimeUnit.SECONDS);
        assertThat(peerCommonName(before)).isEqualTo("CN=localhost");
    }

    @Test
    void badFilesAreRefusedWithTheirName() throws Exception {
        Path missing = certDir.resolve("missing.crt");
        assertThatThrownBy(() -> TlsConfig.builder().keyPair(missing, certs.serverKey()).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(missing.toString())
                .hasMessageContaining("expected: an existing file");
        assertThat(TlsConfig.builder().trust(certs.caCert()).requireClientAuth(true).build().requireClientAuth())
                .isTrue();
        assertThatThrownBy(() -> TlsConfig.builder().requireClientAuth(true).build())
                .hasMessageContaining("requireClientAuth");
        TlsConfig mismatched = TlsConfig.builder().keyPair(certs.serverCert(), certs.clientKey()).build();
        assertThatThrownBy(() -> new NettyAcceptor(config(mismatched), ANY_PORT, new EchoPeer()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(certs.clientKey().toString())
                .hasMessageContaining("expected: the private key of the certificate");
        TlsConfig notAKey = TlsConfig.builder().keyPair(certs.serverCert(), certs.caCert()).build();
        assertThatThrownBy(() -> new NettyAcceptor(config(notAKey), ANY_PORT, new EchoPeer()))
                .hasMessageContaining("expected: an unencrypted PKCS#8 PEM key");
        TlsConfig notACert = TlsConfig.builder().keyPair(certs.serverKey(), certs.serverKey()).build();
        assertThatThrownBy(() -> new NettyAcceptor(config(notACert), ANY_PORT, new EchoPeer()))
                .hasMessageContaining("TLS certificate file: " + certs.serverKey());
        TlsConfig noKeyPair = TlsConfig.builder().trust(certs.caCert()).build();
        assertThatThrownBy(() -> new NettyAcceptor(config(noKeyPair), ANY_PORT, new EchoPeer()))
                .hasMessageContaining("expected: a certificate and key for a server");
    }

    // --- helpers -----------------------------------------------------------------------------------------------

    private void assertRefusedByMutualTls(TlsConfig clientTls) throws Exception {
        EchoPeer server = new EchoPeer();
        Acceptor acceptor = acceptor(mutualServerTls(), server);
        EchoPeer client = new EchoPeer();
        try (LogCapture logs = new LogCapture()) {
            ConnectionGroup group = connect(clientTls, client, acceptor);
            // TLS 1.3: the client may finish its side before the server refuses it; either way it is closed.
            Await.until("the connection was refused", TIMEOUT,
                    () -> group.handshakeFailure() != null || client.disconnects.get() > 0);
            Await.until("the refusal was logged", TIMEOUT, () -> logs.lines("WARN").stream()
                    .anyMatch(line -> line.contains("TLS handshake failed")));
        }
        assertThat(server.connected).isEmpty();
    }

    private static TlsConfig.Builder serverTls() {
        return TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey());
    }

    private static TlsConfig mutualServerTls() {
        return serverTls().trust(certs.caCert()).requireClientAuth(true).build();
    }

    private static TlsConfig.Builder clientTls() {
        return TlsConfig.builder().trust(certs.caCert());
    }

    private static TransportConfig config(TlsConfig tls) {
        return TransportConfig.builder().ioThreads(1).threadNamePrefix("tls-test").tls(tls).build();
    }

    private Acceptor acceptor(TlsConfig tls, EchoPeer handler) {
        NettyAcceptor acceptor = new NettyAcceptor(config(tls), ANY_PORT, handler);
        toClose.push(acceptor);
        acceptor.start();
        return acceptor;
    }

    private Connector connector(TlsConfig tls, EchoPeer handler) {
        NettyConnector connector = new NettyConnector(config(tls), handler);
        toClose.push(connector);
        return connector;
    }

    private ConnectionGroup connect(TlsConfig tls, EchoPeer handler, Acceptor acceptor) {
        return connector(tls, handler).connect(acceptor.localAddress(), 1);
    }

    /** Sends {@code count} requests in rounds of at most {@code window}; fails unless every one is answered. */
    private static void assertEchoes(ConnectionGroup group, EchoPeer client, int count, int window) {
        int sent = 0;
        while (sent < count) {
            int round = Math.min(window, count - sent);
            CountDownLatch answered = client.expect(round);
            for (int i = 0; i < round; i++) {
                Connection connection = group.next();
                assertThat(connection).as("an active connection").isNotNull();
                long id = sent + i + 1_000_000L * System.identityHashCode(group);
                connection.write(EchoPeer.request(connection.alloc(), id, "call-" + id));
            }
            try {
                assertThat(answered.await(10, TimeUnit.SECONDS)).as("every call of the round answered").isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            sent += round;
        }
    }

    private static String protocolOf(Connection connection) {
        return ((NettyConnection) connection).channel().pipeline().get(SslHandler.class).engine().getSession()
                .getProtocol();
    }

    private static String peerCommonName(ConnectionGroup group) throws Exception {
        SslHandler ssl = ((NettyConnection) group.next()).channel().pipeline().get(SslHandler.class);
        return ((X509Certificate) ssl.engine().getSession().getPeerCertificates()[0]).getSubjectX500Principal()
                .getName();
    }

    private static void replace(Path source, Path target) throws IOException {
        Path staged = target.resolveSibling(target.getFileName() + ".new");
        Files.copy(source, staged, StandardCopyOption.REPLACE_EXISTING);
        Files.move(staged, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Reads until end of stream (or a reset); whether that came before the socket's read timeout. */
    private static boolean readUntilClosed(InputStream in) throws IOException {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // Discard: a TLS server answers plaintext with nothing, or an alert at most.
            }
            return true;
        } catch (SocketException reset) {
            return true;
        }
    }

    /** Runs {@code openssl s_client -brief} against the acceptor with stdin closed; its output (both streams). */
    private static String sClient(Acceptor acceptor, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-brief", "-connect",
                "127.0.0.1:" + ((InetSocketAddress) acceptor.localAddress()).getPort()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("s_client ended").isTrue();
        return out;
    }

    /** Starts {@code openssl s_server} on {@code port}; returns once it accepts. Destroyed after the test. */
    private Process sServer(int port, Path cert, Path key) throws Exception {
        Process process = new ProcessBuilder("openssl", "s_server", "-accept", "127.0.0.1:" + port, "-cert",
                cert.toString(), "-key", key.toString(), "-quiet").redirectErrorStream(true).start();
        toClose.push(() -> {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        });
        // s_server prints nothing with -quiet: it is ready once its port accepts a connection.
        Await.until("openssl s_server accepts on " + port, TIMEOUT, () -> {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
        return process;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
