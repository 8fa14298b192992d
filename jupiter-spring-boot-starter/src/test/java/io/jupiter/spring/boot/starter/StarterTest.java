package io.jupiter.spring.boot.starter;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.micrometer.JupiterMeterBinder;
import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.JupiterServer;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Two Spring Boot applications with nothing but the starter and two annotations, through the embedded registry. */
class StarterTest {

    @Test
    void providerAndConsumerApplicationsTalkThroughTheRegistry() {
        try (RegistryServer registry = RegistryServer.builder().host("127.0.0.1").port(0).build()) {
            InetSocketAddress at = registry.start();
            String registryUrl = "--jupiter.registry.address=default://127.0.0.1:" + at.getPort();
            try (ConfigurableApplicationContext provider = new SpringApplicationBuilder(ProviderApp.class)
                         .web(WebApplicationType.NONE)
                         .run(registryUrl, "--jupiter.server.host=127.0.0.1", "--jupiter.server.port=0");
                 ConfigurableApplicationContext consumer = new SpringApplicationBuilder(ConsumerApp.class)
                         .web(WebApplicationType.NONE)
                         .run(registryUrl, "--spring.application.name=shop")) {
                assertThat(provider.getBean(JupiterServer.class).localAddress().getPort()).isPositive();
                assertThat(consumer.getBean(ConsumerApp.Welcome.class).welcome("ada")).isEqualTo("Hello, ada!");
                assertThat(consumer.getBean(JupiterMeterBinder.class)).as("meters ready to bind").isNotNull();
                assertThat(registry.allProviders()).hasSize(1);
            }
            assertThat(registry.allProviders()).as("unpublished on close").isEmpty();
        }
    }
}
