package io.jupiter.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.security.AuthorizationRules;
import io.jupiter.rpc.security.CallerIdentifier;
import io.jupiter.rpc.stream.StreamIterator;
import io.jupiter.rpc.stream.Streams;
import io.jupiter.rpc.stream.TickService;
import io.jupiter.rpc.stream.TickServiceImpl;
import io.jupiter.testkit.TestCertificates;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server streams over mutual TLS: the stream frames are ordinary frames inside the TLS records, credit flow control
 * holds across them, and the caller the client certificate names is authorized per stream method, as for a call.
 */
@Timeout(120)
class StreamsOverTlsTest {

    private static final ServiceKey TICKS = ServiceKey.of(TickService.class, "1.0.0");

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
    void aLongStreamArrivesWholeAndInOrderUnderSmallCredit() {
        TickService ticks = ticksOverTls(AuthorizationRules.builder()
                .allow(TICKS, AuthorizationRules.ANY_METHOD, "client").build());
        // 20,000 messages with 8 in credit at a time: thousands of credit frames go back through TLS.
        try (StreamIterator<Long> it = Streams.iterate(ticks.count(20_000), 8)) {
            List<Long> got = new ArrayList<>(20_000);
            it.forEachRemaining(got::add);
            assertThat(got).containsExactlyElementsOf(LongStream.range(0, 20_000).boxed().toList());
        }
        assertThat(ticks.hello("after")).as("the connection still carries calls").contains("after");
    }

    @Test
    void theCertificatesCallerIsAuthorizedPerStreamMethod() {
        // CN=client may call hello and count, not endless.
        TickService ticks = ticksOverTls(AuthorizationRules.builder()
                .allow(TICKS, "hello", "client").allow(TICKS, "count", "client").build());
        try (StreamIterator<Long> it = Streams.iterate(ticks.count(3))) {
            List<Long> got = new ArrayList<>();
            it.forEachRemaining(got::add);
            assertThat(got).containsExactly(0L, 1L, 2L);
        }
        assertThatThrownBy(() -> {
            try (StreamIterator<Long> it = Streams.iterate(ticks.endless("WAIT", 16))) {
                it.next();
            }
        }).isInstanceOf(RpcException.class)
                .hasMessageContaining("caller client is not authorized")
                .hasMessageContaining("endless");
        assertThat(ticks.hello("still")).contains("still");
    }

    private TickService ticksOverTls(AuthorizationRules rules) {
        TlsConfig serverTls = TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey())
                .trust(certs.caCert()).requireClientAuth(true).build();
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().threadNamePrefix("tls-stream-acceptor").tls(serverTls)
                        .build())
                .callerIdentifier(CallerIdentifier.CLIENT_CERTIFICATE)
                .authorizer(rules)
                .build();
        server.register(new TickServiceImpl());
        int port = server.start().getPort();
        TlsConfig clientTls = TlsConfig.builder().trust(certs.caCert())
                .keyPair(certs.clientCert(), certs.clientKey()).build();
        client = JupiterClient.builder()
                .transportConfig(TransportConfig.builder().threadNamePrefix("tls-stream-connector").tls(clientTls)
                        .build())
                .build();
        return client.proxy(TickService.class).address("127.0.0.1", port).timeoutMillis(20_000).build();
    }
}
