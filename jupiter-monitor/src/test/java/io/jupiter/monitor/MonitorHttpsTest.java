package io.jupiter.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.testkit.TestCertificates;
import io.jupiter.transport.TlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP metrics endpoint with TLS: served over HTTPS to a client trusting the CA, plaintext closed at once. */
class MonitorHttpsTest {

    @RegisterExtension
    static final JupiterServerExtension rpc = Fixture.rpc();

    @TempDir
    static Path certDir;
    private static TestCertificates certs;

    @BeforeAll
    static void makeCertificates() throws IOException {
        assumeTrue(TestCertificates.opensslAvailable(), TestCertificates.SKIP_MESSAGE);
        certs = TestCertificates.create(certDir);
    }

    @Test
    void metricsAreServedOverHttpsAndPlaintextIsClosed() throws Exception {
        TlsConfig tls = TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey()).build();
        try (Fixture own = new Fixture(rpc, b -> b.httpPort(0).httpTls(tls))) {
            int port = own.monitor.httpAddress().getPort();
            HttpClient https = HttpClient.newBuilder().sslContext(trusting(certs.caCert()))
                    .connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> response = https.send(request(URI.create("https://127.0.0.1:" + port
                    + "/metrics")), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);

            try (Socket socket = new Socket()) {
                socket.connect(own.monitor.httpAddress(), 5_000);
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                assertThat(closedWithoutAnswer(socket.getInputStream())).isTrue();
            }
            HttpClient untrusting = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            assertThatThrownBy(() -> untrusting.send(request(URI.create("https://127.0.0.1:" + port + "/metrics")),
                    HttpResponse.BodyHandlers.ofString())).isInstanceOf(IOException.class);
        }
    }

    @Test
    void aKeyThatDoesNotMatchItsCertificateIsRefusedAtBuild() {
        TlsConfig tls = TlsConfig.builder().keyPair(certs.serverCert(), certs.clientKey()).build();
        assertThatThrownBy(() -> MonitorServer.builder().password(Fixture.PASSWORD.toCharArray()).httpPort(0)
                .httpTls(tls).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(certs.clientKey().toString());
    }

    private static HttpRequest request(URI uri) {
        String token = Base64.getEncoder().encodeToString(("ops:" + Fixture.PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        return HttpRequest.newBuilder(uri).header("Authorization", "Basic " + token).timeout(Duration.ofSeconds(10))
                .build();
    }

    private static SSLContext trusting(Path ca) throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        try (InputStream in = Files.newInputStream(ca)) {
            store.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** Whether the peer closed without sending anything that looks like HTTP. */
    private static boolean closedWithoutAnswer(InputStream in) throws IOException {
        StringBuilder got = new StringBuilder();
        try {
            for (int b = in.read(); b >= 0; b = in.read()) {
                got.append((char) b);
            }
        } catch (SocketException reset) {
            // Closed with a reset: also closed.
        }
        return !got.toString().contains("HTTP/");
    }
}
