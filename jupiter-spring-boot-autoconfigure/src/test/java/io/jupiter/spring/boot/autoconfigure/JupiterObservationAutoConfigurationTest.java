package io.jupiter.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.micrometer.observation.RpcClientContext;
import io.jupiter.micrometer.observation.RpcObservationFilter;
import io.jupiter.micrometer.observation.RpcServerContext;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.testkit.Await;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The Observation filter is installed exactly when the application has an {@link ObservationRegistry}. */
class JupiterObservationAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JupiterAutoConfiguration.class,
                    JupiterObservationAutoConfiguration.class))
            .withPropertyValues("jupiter.server.host=127.0.0.1", "jupiter.server.port=0",
                    "jupiter.server.shutdown-timeout=5s");

    @Configuration(proxyBeanMethods = false)
    static class Provider {
        @Bean
        GreeterImpl greeterImpl() {
            return new GreeterImpl();
        }
    }

    /** A registry whose one handler keeps every stopped observation's context. */
    @Configuration(proxyBeanMethods = false)
    static class Observations {
        final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

        @Bean
        ObservationRegistry observationRegistry() {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new ObservationHandler<>() {
                @Override
                public void onStop(Observation.Context context) {
                    stopped.add(context);
                }

                @Override
                public boolean supportsContext(Observation.Context context) {
                    return true;
                }
            });
            return registry;
        }
    }

    @Test
    void withoutAnObservationRegistryNothingIsInstalled() {
        runner.withUserConfiguration(Provider.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(RpcObservationFilter.class);
        });
    }

    @Test
    void withAnObservationRegistryTheClientAndTheServerAreObserved() {
        runner.withUserConfiguration(Provider.class, Observations.class).run(provider -> {
            assertThat(provider).hasSingleBean(RpcObservationFilter.class);
            int port = provider.getBean(JupiterServer.class).localAddress().getPort();
            Greeter greeter = provider.getBean(JupiterClient.class).proxy(Greeter.class)
                    .address("127.0.0.1:" + port).timeoutMillis(10_000).build();
            assertThat(greeter.greet("ada")).isEqualTo("Hello, ada");

            List<Observation.Context> stopped = provider.getBean(Observations.class).stopped;
            Await.until("the client and the server observation stopped", Duration.ofSeconds(10),
                    () -> stopped.size() == 2);
            assertThat(stopped).hasAtLeastOneElementOfType(RpcClientContext.class)
                    .hasAtLeastOneElementOfType(RpcServerContext.class);
            assertThat(stopped).allSatisfy(c -> assertThat(c.getContextualName()).isEqualTo("greeter/greet"));
        });
    }
}
