package io.jupiter.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.micrometer.JupiterMeterBinder;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.testkit.Await;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real Spring Boot provider (web server, Actuator, Micrometer) on port 0: its health and info over HTTP, its
 * meters after known calls, and a shutdown while calls are in flight, none of which may fail.
 */
class GracefulShutdownTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int IN_FLIGHT = 8;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void drainsCallsInFlightWhileHealthSaysOutOfService() throws Exception {
        SpringApplication application = new SpringApplication(ProviderApplication.class);
        ConfigurableApplicationContext context = application.run("--server.port=0", "--server.address=127.0.0.1",
                "--management.endpoints.web.exposure.include=health,info",
                "--management.endpoint.health.show-details=always", "--jupiter.server.host=127.0.0.1",
                "--jupiter.server.port=0", "--jupiter.server.provider-threads=" + (IN_FLIGHT * 2),
                "--jupiter.server.shutdown-timeout=15s");
        Thread closer = null;
        try (JupiterClient client = JupiterClient.builder().appName("load").build()) {
            int httpPort = ((WebServerApplicationContext) context).getWebServer().getPort();
            int rpcPort = context.getBean(JupiterServer.class).localAddress().getPort();
            Greeter greeter = client.proxy(Greeter.class).address("127.0.0.1:" + rpcPort).timeoutMillis(20_000)
                    .build();

            HttpResponse<String> health = get(httpPort, "/actuator/health/jupiter");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"").contains("test-greeter-1.0.0");
            assertThat(get(httpPort, "/actuator/info").body()).contains("\"provided\":[\"test-greeter-1.0.0\"]");

            for (int i = 0; i < 3; i++) {
                assertThat(greeter.greet("m" + i)).isEqualTo("Hello, m" + i);
            }
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            Await.until("3 provider calls in the application's MeterRegistry", WAIT,
                    () -> meters.find(JupiterMeterBinder.METHOD).tags("side", "provider", "method", "greet")
                            .timers().stream().mapToLong(t -> t.count()).sum() == 3);

            GreeterImpl service = context.getBean(GreeterImpl.class);
            service.gate = new CountDownLatch(1);
            List<CompletableFuture<String>> calls = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT; i++) {
                calls.add(greeter.greetSlowly("c" + i));
            }
            Await.until(IN_FLIGHT + " calls running in the provider", WAIT,
                    () -> service.slowStarted.get() == IN_FLIGHT);

            closer = new Thread(context::close, "context-close");
            closer.start();
            Await.until("health OUT_OF_SERVICE during the drain", WAIT, () -> {
                HttpResponse<String> during = get(httpPort, "/actuator/health/jupiter");
                return during.statusCode() == 503 && during.body().contains("OUT_OF_SERVICE");
            });
            assertThat(closer.isAlive()).as("the context waits for the drain").isTrue();

            service.gate.countDown();
            for (int i = 0; i < IN_FLIGHT; i++) {
                assertThat(calls.get(i).get(20, TimeUnit.SECONDS)).isEqualTo("Finally, c" + i);
            }
            closer.join(WAIT.toMillis());
            assertThat(closer.isAlive()).as("the context closed after the drain").isFalse();
            assertThat(context.isActive()).isFalse();
        } finally {
            if (closer == null) {
                context.close();
            }
        }
    }

    private HttpResponse<String> get(int port, String path) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
