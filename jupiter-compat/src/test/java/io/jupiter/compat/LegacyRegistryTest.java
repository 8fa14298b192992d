package io.jupiter.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.registry.RegisterMeta;
import io.jupiter.registry.ServiceMeta;
import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.testkit.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real Jupiter 1.3.1 provider (its own JVM) publishing to our embedded registry: without a secret it is found and
 * called through the registry, as between 1.3.1 peers; a registry with a secret refuses it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LegacyRegistryTest {

    private static final ServiceMeta COMPAT = new ServiceMeta("compat", "compat", "1.0.0");

    @Test
    void aLegacyProviderPublishesToOurRegistryWithoutASecret() throws Exception {
        try (RegistryServer registry = RegistryServer.builder().host("127.0.0.1").port(0).build()) {
            int registryPort = registry.start().getPort();
            int port = LegacyJvm.freePort();
            try (LegacyJvm provider = LegacyJvm.start("LegacyRegistryProvider", String.valueOf(port),
                    "127.0.0.1:" + registryPort)) {
                provider.awaitLine("ready", 60);
                Await.until("the 1.3.1 provider published", Duration.ofSeconds(30),
                        () -> !registry.providers(COMPAT).isEmpty());
                RegisterMeta published = registry.providers(COMPAT).get(0);
                // 1.3.1 publishes an empty host: the registry filled in the address it connects from.
                assertThat(published.address().host()).isEqualTo("127.0.0.1");
                assertThat(published.address().port()).isEqualTo(port);
                try (JupiterClient client = JupiterClient.builder().appName("compat-registry")
                        .registry("default://127.0.0.1:" + registryPort).build()) {
                    CompatService service = client.proxy(CompatService.class).timeoutMillis(20_000).build();
                    Await.until("the consumer found the 1.3.1 provider", Duration.ofSeconds(30), () -> {
                        try {
                            return "via registry".equals(service.str("via registry"));
                        } catch (RuntimeException notYet) {
                            return false;
                        }
                    });
                }
            }
        }
    }

    @Test
    void aRegistryWithASecretRefusesALegacyProvider() throws Exception {
        try (RegistryServer open = RegistryServer.builder().host("127.0.0.1").port(0).build();
             RegistryServer withSecret = RegistryServer.builder().host("127.0.0.1").port(0)
                     .secret("a secret 1.3.1 cannot know").build()) {
            String both = "127.0.0.1:" + open.start().getPort() + ",127.0.0.1:" + withSecret.start().getPort();
            int port = LegacyJvm.freePort();
            try (LegacyJvm provider = LegacyJvm.start("LegacyRegistryProvider", String.valueOf(port), both)) {
                provider.awaitLine("ready", 60);
                // 1.3.1 publishes to both at once: the open registry takes it; the one with a secret closes the
                // connection on the PUBLISH (one WARN line), on every reconnect too, so the service never shows.
                Await.until("the 1.3.1 provider published to the open registry", Duration.ofSeconds(30),
                        () -> !open.providers(COMPAT).isEmpty());
                assertThat(Await.holdsFor(Duration.ofSeconds(2), () -> withSecret.allProviders().isEmpty()))
                        .as("the registry with a secret never lists the 1.3.1 provider").isTrue();
            }
        }
    }
}
