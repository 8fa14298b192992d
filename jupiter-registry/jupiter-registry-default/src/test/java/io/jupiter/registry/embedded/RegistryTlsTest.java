package io.jupiter.registry.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.registry.ProviderAddress;
import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.Registries;
import io.jupiter.registry.RegistryService;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.testkit.Await;
import io.jupiter.testkit.TestCertificates;
import io.jupiter.transport.TlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded registry with TLS (and mutual TLS) on 127.0.0.1, with certificates made by {@code openssl}. */
class RegistryTlsTest {

    private static final ServiceMeta SERVICE = new ServiceMeta("test", "greeter", "1.0.0");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path certDir;
    private static TestCertificates certs;

    private RegistryServer server;

    @BeforeAll
    static void makeCertificates() throws IOException {
        assumeTrue(TestCertificates.opensslAvailable(), TestCertificates.SKIP_MESSAGE);
        certs = TestCertificates.create(certDir);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void publishAndSubscribeOverMutualTls() throws Exception {
        InetSocketAddress bound = start(TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey())
                .trust(certs.caCert()).requireClientAuth(true).build());
        TlsConfig client = TlsConfig.builder().trust(certs.caCert()).keyPair(certs.clientCert(), certs.clientKey())
                .build();
        String addresses = "127.0.0.1:" + bound.getPort();
        try (RegistryService provider = EmbeddedRegistryFactory.connect(addresses, 200, client);
             RegistryService consumer = EmbeddedRegistryFactory.connect(addresses, 200, client)) {
            AtomicReference<List<RegisterMeta>> seen = new AtomicReference<>(List.of());
            consumer.subscribe(SERVICE, (service, providers) -> seen.set(providers));
            provider.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18001), SERVICE, 50, 1));
            assertThat(provider.awaitRegistered(10_000)).isTrue();
            Await.until("the consumer sees the provider", TIMEOUT, () -> seen.get().size() == 1);
        }
    }

    @Test
    void urlClientsUseTlsFromSystemProperties() throws Exception {
        InetSocketAddress bound = start(TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey()).build());
        System.setProperty(EmbeddedRegistryFactory.TLS_TRUST, certs.caCert().toString());
        try (RegistryService provider = Registries.connect("default://127.0.0.1:" + bound.getPort())) {
            provider.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18002), SERVICE, 50, 1));
            assertThat(provider.awaitRegistered(10_000)).isTrue();
        } finally {
            System.clearProperty(EmbeddedRegistryFactory.TLS_TRUST);
        }
    }

    @Test
    void aPlaintextPeerIsClosedAtOnceAndPublishesNothing() throws Exception {
        InetSocketAddress bound = start(TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey()).build());
        try (Socket socket = new Socket()) {
            socket.connect(bound, 2000);
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            // A 1.3.1 registry frame header: magic 0xbabe, then sign, status, id, length.
            out.write(new byte[] {(byte) 0xba, (byte) 0xbe, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0});
            out.flush();
            assertThat(closedByPeer(socket.getInputStream())).isTrue();
        }
        RegistryService plaintext = Registries.connect("default://127.0.0.1:" + bound.getPort());
        try {
            plaintext.register(new RegisterMeta(new ProviderAddress("127.0.0.1", 18003), SERVICE, 50, 1));
            assertThat(plaintext.awaitRegistered(300)).isFalse();
        } finally {
            plaintext.close();
        }
        assertThat(server.allProviders()).isEmpty();
    }

    private InetSocketAddress start(TlsConfig tls) {
        server = RegistryServer.builder().host("127.0.0.1").port(0).resendMillis(200).tls(tls).build();
        return server.start();
    }

    private static boolean closedByPeer(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // A TLS server may answer with an alert before it closes.
            }
            return true;
        } catch (SocketException reset) {
            return true;
        }
    }
}
