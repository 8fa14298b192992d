package io.jupiter.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.junit5.JupiterServerExtension;
import io.jupiter.testkit.Await;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The HTTP endpoint's limits: the shared password throttle, and the deadline for a whole request. */
class MonitorHttpLimitsTest {

    @RegisterExtension
    static final JupiterServerExtension rpc = Fixture.rpc();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void wrongPasswordsOverHttpAreThrottledThereAndOnTheConsole() throws Exception {
        try (Fixture own = new Fixture(rpc, b -> b.httpPort(0))) {
            URI uri = URI.create("http://127.0.0.1:" + own.monitor.httpAddress().getPort() + "/metrics");
            for (int i = 0; i < 3; i++) {
                assertThat(status(uri, "wrong-" + i)).isEqualTo(401);
            }
            HttpResponse<String> refused = send(uri, Fixture.PASSWORD);
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");

            // The console counts the same failures: its next auth from this address waits the delay (300 ms).
            try (ConsoleClient console = own.session()) {
                long start = System.nanoTime();
                assertThat(console.command("auth " + Fixture.PASSWORD)).isEqualTo("OK\r\n");
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(300);
            }
            // That success forgot the address: HTTP answers at once again.
            assertThat(status(uri, Fixture.PASSWORD)).isEqualTo(200);
        }
    }

    @Test
    void theRightPasswordIsServedOnceTheDelayHasPassed() throws Exception {
        try (Fixture own = new Fixture(rpc, b -> b.httpPort(0))) {
            URI uri = URI.create("http://127.0.0.1:" + own.monitor.httpAddress().getPort() + "/metrics.json");
            for (int i = 0; i < 3; i++) {
                assertThat(status(uri, "wrong-" + i)).isEqualTo(401);
            }
            assertThat(status(uri, Fixture.PASSWORD)).isEqualTo(429);
            Await.until("the endpoint serves again", Duration.ofSeconds(10),
                    () -> status(uri, Fixture.PASSWORD) == 200);
        }
    }

    @Test
    void aRequestThatDoesNotArriveWholeInTimeIsClosed() throws Exception {
        try (Fixture own = new Fixture(rpc, b -> b.httpPort(0).httpRequestTimeoutMillis(300));
             Socket socket = new Socket()) {
            socket.connect(own.monitor.httpAddress(), 5_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            InputStream in = socket.getInputStream();
            assertThat(in.read()).as("closed without an answer").isEqualTo(-1);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(200L, 5_000L);
        }
    }

    private int status(URI uri, String password) {
        try {
            return send(uri, password).statusCode();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> send(URI uri, String password) throws Exception {
        String token = Base64.getEncoder().encodeToString(("ops:" + password).getBytes(StandardCharsets.UTF_8));
        return http.send(HttpRequest.newBuilder(uri).header("Authorization", "Basic " + token)
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
