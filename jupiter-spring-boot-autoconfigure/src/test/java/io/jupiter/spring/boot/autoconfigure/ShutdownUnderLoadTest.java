package io.jupiter.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.cluster.ClusterStrategy;
import io.jupiter.testkit.Await;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two provider applications behind the embedded registry and a consumer calling them from several threads without
 * pause: closing one provider application loses no call (it unpublishes, the consumer moves to the other, what is
 * in flight finishes, what arrives meanwhile is refused as busy and retried elsewhere).
 */
class ShutdownUnderLoadTest {

    private static final int THREADS = 4;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void closingOneProviderUnderLoadFailsNoCall() throws Exception {
        try (RegistryServer registry = RegistryServer.builder().host("127.0.0.1").port(0).build()) {
            InetSocketAddress at = registry.start();
            String registryUrl = "default://127.0.0.1:" + at.getPort();
            ConfigurableApplicationContext first = provider(registryUrl);
            try (ConfigurableApplicationContext second = provider(registryUrl);
                 JupiterClient client = JupiterClient.builder().appName("load").registry(registryUrl).build()) {
                Greeter greeter = client.proxy(Greeter.class).timeoutMillis(10_000)
                        .cluster(ClusterStrategy.failOver(3)).build();
                Await.until("both providers published", WAIT, () -> registry.allProviders().size() == 2);

                AtomicBoolean running = new AtomicBoolean(true);
                AtomicLong calls = new AtomicLong();
                ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
                List<Thread> load = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    Thread thread = new Thread(() -> {
                        while (running.get()) {
                            try {
                                greeter.greet("load");
                                calls.incrementAndGet();
                            } catch (RuntimeException e) {
                                failures.add(e);
                            }
                        }
                    }, "load-" + t);
                    thread.start();
                    load.add(thread);
                }
                Await.until("calls reach both providers", WAIT, () -> served(first) > 50 && served(second) > 50);

                first.close();
                long afterClose = calls.get();
                Await.until("calls go on against the remaining provider", WAIT, () -> calls.get() > afterClose + 200);
                running.set(false);
                for (Thread thread : load) {
                    thread.join(WAIT.toMillis());
                }
                assertThat(failures).as("failed calls").isEmpty();
                assertThat(registry.allProviders()).hasSize(1);
            } finally {
                first.close();
            }
        }
    }

    private static long served(ConfigurableApplicationContext provider) {
        return provider.getBean(JupiterServer.class).metrics().registry().getTimers().entrySet().stream()
                .filter(e -> e.getKey().endsWith("#greet")).mapToLong(e -> e.getValue().getCount()).sum();
    }

    private static ConfigurableApplicationContext provider(String registryUrl) {
        return new SpringApplicationBuilder(ProviderApplication.class).web(WebApplicationType.NONE)
                .run("--jupiter.registry.address=" + registryUrl, "--jupiter.server.host=127.0.0.1",
                        "--jupiter.server.port=0", "--jupiter.server.shutdown-timeout=15s");
    }
}
