package io.jupiter.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.Int64Value;
import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.security.CallerIdentifier;
import io.jupiter.testkit.TestCertificates;
import io.jupiter.transport.TlsConfig;
import io.jupiter.transport.TransportConfig;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gRPC (ALPN {@code h2}), HTTPS with JSON (over HTTP/2, or HTTP/1.1) and the 1.3.1 protocol on one mutual-TLS
 * port: grpc-java's client, the machine's curl, the JDK's HttpClient and a Jupiter client, each presenting a client
 * certificate; the certificate's name reaches the server's authorizer, which allows {@code CN=client} only.
 */
class TlsProtocolsTest {

    private static final MethodDescriptor<StringValue, StringValue> SAY_HELLO = GrpcMethods.SAY_HELLO;
    private static final MethodDescriptor<Int64Value, Int64Value> COUNT = MethodDescriptor
            .<Int64Value, Int64Value>newBuilder()
            .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(Ticker.class.getName(), "count"))
            .setRequestMarshaller(new ProtoMarshaller<>(Int64Value.parser()))
            .setResponseMarshaller(new ProtoMarshaller<>(Int64Value.parser()))
            .build();

    @TempDir
    static Path certDir;
    private static TestCertificates certs;
    private static JupiterServer server;
    private static int port;

    @BeforeAll
    static void start() throws IOException {
        assumeTrue(TestCertificates.opensslAvailable(), TestCertificates.SKIP_MESSAGE);
        certs = TestCertificates.create(certDir);
        TlsConfig tls = TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey()).trust(certs.caCert())
                .requireClientAuth(true).build();
        server = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().tls(tls).build())
                .protocols(HttpProtocols.httpAndGrpc())
                .callerIdentifier(CallerIdentifier.CLIENT_CERTIFICATE)
                .authorizer((caller, service, method) -> caller.name().equals("client"))
                .build();
        server.register(new GreeterImpl(), Greeter.class);
        server.register(new CalculatorImpl(), Calculator.class);
        server.register(new TickerImpl(), Ticker.class); // stream methods: each connection is announced them
        server.register(new NumbersImpl(), Numbers.class);
        port = server.start().getPort();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static ManagedChannel channel(Path cert, Path key) throws IOException {
        return NettyChannelBuilder.forAddress("127.0.0.1", port)
                .sslContext(GrpcSslContexts.forClient().trustManager(certs.caCert().toFile())
                        .keyManager(cert.toFile(), key.toFile()).build())
                .build();
    }

    private static void shutdown(ManagedChannel channel) throws InterruptedException {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void grpcJavaCallsOverTlsAsItsCertificateAllows() throws Exception {
        ManagedChannel allowed = channel(certs.clientCert(), certs.clientKey());
        try {
            assertThat(ClientCalls.blockingUnaryCall(allowed, SAY_HELLO,
                    CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), StringValue.of("tls")).getValue())
                    .isEqualTo("Hello, tls");
            List<Long> counted = new ArrayList<>();
            Iterator<Int64Value> stream = ClientCalls.blockingServerStreamingCall(allowed, COUNT,
                    CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), Int64Value.of(5));
            stream.forEachRemaining(v -> counted.add(v.getValue()));
            assertThat(counted).containsExactly(1L, 2L, 3L, 4L, 5L);
        } finally {
            shutdown(allowed);
        }

        // CN=localhost: a certificate of the trusted CA, verified, but not one the authorizer allows.
        ManagedChannel other = channel(certs.serverCert(), certs.serverKey());
        try {
            assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(other, SAY_HELLO,
                    CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), StringValue.of("tls")))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
                        assertThat(e.getStatus().getDescription())
                                .contains("caller localhost is not authorized to call");
                    });
            assertThatThrownBy(() -> ClientCalls.blockingServerStreamingCall(other, COUNT,
                    CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), Int64Value.of(5)).hasNext())
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED));
        } finally {
            shutdown(other);
        }
    }

    @Test
    void curlCallsOverHttpsAsItsCertificateAllows() throws Exception {
        String url = "https://127.0.0.1:" + port + "/" + Calculator.class.getName() + "/add";
        Curl.Reply ok = curl(url, certs.clientCert(), certs.clientKey());
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("5");

        Curl.Reply refused = curl(url, certs.serverCert(), certs.serverKey());
        assertThat(refused.status()).as(refused.body()).isEqualTo(403);
        assertThat(refused.body()).contains("\"status\":\"BAD_REQUEST\"")
                .contains("caller localhost is not authorized to call");

        // curl offers h2 and http/1.1 and gets h2 (above); one offering only http/1.1 gets HTTP/1.1's JSON.
        Curl.Reply http1 = Curl.run(List.of("curl", "-sS", "--max-time", "20", "--http1.1", "--cacert",
                certs.caCert().toString(), "--cert", certs.clientCert().toString(), "--key",
                certs.clientKey().toString(), "-H", "Content-Type: application/json", "--data-binary", "[2, 3]",
                "-w", "\n%{http_code}", url));
        assertThat(http1).isEqualTo(new Curl.Reply(200, "5", 0));
    }

    @Test
    void curlWithoutACertificateIsRefusedInTheHandshake() throws Exception {
        String url = "https://127.0.0.1:" + port + "/" + Calculator.class.getName() + "/add";
        Curl.Reply refused = Curl.run(List.of("curl", "-sS", "--max-time", "20", "--cacert",
                certs.caCert().toString(), "-H", "Content-Type: application/json", "--data-binary", "[2, 3]",
                "-w", "\n%{http_code}", url));
        assertThat(refused.status()).as(refused.body()).isEqualTo(0);
        assertThat(refused.exitCode()).isNotZero();
    }

    @Test
    void aJupiterClientStillCallsOverTls() {
        TlsConfig tls = TlsConfig.builder().trust(certs.caCert()).keyPair(certs.clientCert(), certs.clientKey())
                .build();
        try (JupiterClient client = JupiterClient.builder()
                .transportConfig(TransportConfig.builder().tls(tls).build()).build()) {
            Calculator calculator = client.proxy(Calculator.class).address("127.0.0.1", port)
                    .timeoutMillis(20_000).build();
            assertThat(calculator.add(40, 2)).isEqualTo(42);
        }
    }

    /** The JDK's TLS (what a server uses where OpenSSL does not load) offers ALPN {@code h2} as well. */
    @Test
    void grpcJavaCallsAServerOnTheJdksTls() throws Exception {
        TlsConfig tls = TlsConfig.builder().keyPair(certs.serverCert(), certs.serverKey())
                .provider(TlsConfig.Provider.JDK).build();
        try (JupiterServer jdk = JupiterServer.builder().host("127.0.0.1").port(0)
                .transportConfig(TransportConfig.builder().tls(tls).build())
                .protocols(HttpProtocols.httpAndGrpc()).build()) {
            jdk.register(new GreeterImpl(), Greeter.class);
            ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", jdk.start().getPort())
                    .sslContext(GrpcSslContexts.forClient().trustManager(certs.caCert().toFile()).build()).build();
            try {
                assertThat(ClientCalls.blockingUnaryCall(channel, SAY_HELLO,
                        CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), StringValue.of("jdk"))
                        .getValue()).isEqualTo("Hello, jdk");
            } finally {
                shutdown(channel);
            }
        }
    }

    /**
     * The server's first writes (the streams announcement, 1.3.1 bytes) wait for the protocol over TLS too, however
     * late the handshake: a client that connects, waits a second (twice the hold), then shakes hands with ALPN
     * {@code h2} and sends the HTTP/2 preface reads HTTP/2's SETTINGS first.
     */
    @Test
    void anHttp2ClientWhoseHandshakeStartsLateReadsSettingsFirst() throws Exception {
        SSLContext jdk = ((JdkSslContext) SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                .trustManager(certs.caCert().toFile())
                .keyManager(certs.clientCert().toFile(), certs.clientKey().toFile()).build()).context();
        try (Socket plain = new Socket("127.0.0.1", port)) {
            plain.setSoTimeout(20_000);
            Thread.sleep(1_000); // the peer's pause before its handshake, longer than FirstWritesHold.HOLD_MILLIS
            try (SSLSocket tls = (SSLSocket) jdk.getSocketFactory().createSocket(plain, "127.0.0.1", port, true)) {
                SSLParameters parameters = tls.getSSLParameters();
                parameters.setApplicationProtocols(new String[] {"h2"});
                tls.setSSLParameters(parameters);
                tls.startHandshake();
                assertThat(tls.getApplicationProtocol()).isEqualTo("h2");
                OutputStream out = tls.getOutputStream();
                out.write(InteropProtocol.HTTP2_PREFACE);
                out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS frame
                out.flush();
                byte[] header = tls.getInputStream().readNBytes(9);
                assertThat(header).hasSize(9);
                assertThat(header[3]).as("the type of the first frame read (4: SETTINGS)").isEqualTo((byte) 4);
            }
        }
    }

    /**
     * The JDK's {@code HttpClient} offers {@code h2} and {@code http/1.1}; the server prefers {@code h2}, so the JSON
     * calls go over HTTP/2, with the same answers, errors, limits and caller identity as over HTTP/1.1.
     */
    @Test
    void theJdksHttpClientCallsJsonOverHttp2() throws Exception {
        HttpClient client = jdkHttpClient(certs.clientCert(), certs.clientKey());
        HttpResponse<String> ok = client.send(jsonPost(Calculator.class, "add", "[2, 3]"), BodyHandlers.ofString());
        assertThat(ok.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("5");

        HttpResponse<String> noMethod = client.send(jsonPost(Calculator.class, "subtract", "[1, 2]"),
                BodyHandlers.ofString());
        assertThat(noMethod.statusCode()).isEqualTo(404);
        assertThat(noMethod.body()).contains("\"status\":\"SERVICE_NOT_FOUND\"");
        HttpResponse<String> badJson = client.send(jsonPost(Calculator.class, "add", "[1, "),
                BodyHandlers.ofString());
        assertThat(badJson.statusCode()).isEqualTo(400);
        assertThat(badJson.body()).contains("not valid JSON");
        String big = "[\"" + "x".repeat(TransportConfig.DEFAULT_MAX_BODY_SIZE) + "\"]";
        HttpResponse<String> tooBig = client.send(jsonPost(Calculator.class, "split", big), BodyHandlers.ofString());
        assertThat(tooBig.statusCode()).isEqualTo(413);
        assertThat(tooBig.body()).contains("-byte cap");

        HttpResponse<Stream<String>> lines = client.send(jsonPost(Numbers.class, "upTo", "[100]"),
                BodyHandlers.ofLines());
        assertThat(lines.statusCode()).isEqualTo(200);
        assertThat(lines.headers().firstValue("content-type")).hasValue("application/x-ndjson");
        assertThat(lines.body().toList()).isEqualTo(LongStream.rangeClosed(1, 100).mapToObj(Long::toString)
                .toList());

        // CN=localhost: a certificate of the trusted CA, but not one the authorizer allows.
        HttpResponse<String> refused = jdkHttpClient(certs.serverCert(), certs.serverKey())
                .send(jsonPost(Calculator.class, "add", "[2, 3]"), BodyHandlers.ofString());
        assertThat(refused.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("caller localhost is not authorized to call");
    }

    private static HttpClient jdkHttpClient(Path cert, Path key) throws IOException {
        SSLContext context = ((JdkSslContext) SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                .trustManager(certs.caCert().toFile()).keyManager(cert.toFile(), key.toFile()).build()).context();
        return HttpClient.newBuilder().sslContext(context).version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(20)).build();
    }

    private static HttpRequest jsonPost(Class<?> service, String method, String body) {
        return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/" + service.getName() + "/" + method))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static Curl.Reply curl(String url, Path cert, Path key) throws Exception {
        return Curl.run(List.of("curl", "-sS", "--max-time", "20", "--cacert", certs.caCert().toString(),
                "--cert", cert.toString(), "--key", key.toString(), "-H", "Content-Type: application/json",
                "--data-binary", "[2, 3]", "-w", "\n%{http_code}", url));
    }
}
