package io.jupiter.example.spring.provider;

import io.jupiter.registry.embedded.RegistryServer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.PropertySource;

/**
 * The provider: serves {@link GreeterImpl} (found by its {@code @ServiceProviderImpl}) and, for the example's sake,
 * runs the embedded registry in the same process. Settings in {@code provider.properties}.
 */
@SpringBootApplication
@PropertySource("classpath:provider.properties")
public class ProviderApplication {

    /** Starts the provider; {@code args} may override any property ({@code --server.port=0}). */
    public static ConfigurableApplicationContext run(String... args) {
        return new SpringApplicationBuilder(ProviderApplication.class).run(args);
    }

    /** The embedded registry; on 127.0.0.1 only. */
    @Bean(initMethod = "start", destroyMethod = "close")
    RegistryServer registryServer(@Value("${example.registry.port}") int port) {
        return RegistryServer.builder().host("127.0.0.1").port(port).build();
    }
}
