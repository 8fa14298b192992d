package io.jupiter.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.monitor.MonitorServer;
import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.spring.boot.JupiterReference;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class JupiterAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JupiterAutoConfiguration.class))
            .withPropertyValues("jupiter.server.host=127.0.0.1", "jupiter.server.port=0",
                    "jupiter.server.shutdown-timeout=5s");

    @Configuration(proxyBeanMethods = false)
    static class Provider {
        @Bean
        GreeterImpl greeterImpl() {
            return new GreeterImpl();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Consumer {
        @Bean
        Caller caller(@JupiterReference(address = "${greeter.address:}", timeoutMillis = 10_000) Greeter viaBean) {
            Caller caller = new Caller(viaBean);
            return caller;
        }
    }

    @Test
    void providerAndConsumerFindEachOtherInTheRegistry() {
        try (RegistryServer registry = RegistryServer.builder().host("127.0.0.1").port(0).build()) {
            InetSocketAddress at = registry.start();
            runner.withUserConfiguration(Provider.class, Consumer.class)
                    .withPropertyValues("jupiter.registry.address=default://127.0.0.1:" + at.getPort(),
                            "spring.application.name=shop")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        Caller caller = context.getBean(Caller.class);
                        assertThat(caller.byField.greet("field")).isEqualTo("Hello, field");
                        assertThat(caller.byConstructor.greet("ctor")).isEqualTo("Hello, ctor");
                        assertThat(context.getBean(JupiterClient.class).appName()).isEqualTo("shop");

                        Health health = context.getBean(JupiterHealthIndicator.class).health();
                        assertThat(health.getStatus()).isEqualTo(Status.UP);
                        assertThat(health.getDetails()).containsEntry("registryReachable", true)
                                .containsEntry("services", List.of("test-greeter-1.0.0"));
                    });
        }
    }

    @Test
    void consumerCallsAProviderOfAnotherContextByAddress() {
        runner.withUserConfiguration(Provider.class).run(provider -> {
            assertThat(provider).hasNotFailed();
            int port = provider.getBean(JupiterServer.class).localAddress().getPort();
            runner.withUserConfiguration(Consumer.class)
                    .withPropertyValues("greeter.address=127.0.0.1:" + port, "jupiter.client.app-name=web")
                    .run(consumer -> {
                        assertThat(consumer).hasNotFailed();
                        assertThat(consumer.getBean(Caller.class).byField.greet("ada")).isEqualTo("Hello, ada");
                        assertThat(consumer.getBean(JupiterServer.class).localAddress())
                                .as("a consumer without services binds no port").isNull();
                        assertThat(consumer.getBean(JupiterHealthIndicator.class).health().getStatus())
                                .isEqualTo(Status.UP);

                        Info.Builder info = new Info.Builder();
                        consumer.getBean(JupiterInfoContributor.class).contribute(info);
                        @SuppressWarnings("unchecked")
                        Map<String, Object> jupiter = (Map<String, Object>) info.build().get("jupiter");
                        assertThat(jupiter.get("provided")).isEqualTo(List.of());
                        assertThat(jupiter.get("consumed").toString()).contains("test-greeter-1.0.0")
                                .contains("127.0.0.1:" + port);
                    });
            Info.Builder info = new Info.Builder();
            provider.getBean(JupiterInfoContributor.class).contribute(info);
            assertThat(info.build().get("jupiter").toString()).contains("provided=[test-greeter-1.0.0]");
        });
    }

    @Test
    void aKubernetesRegistryAddressStartsAProviderThatPublishesNothing() {
        // In a pod: the provider names the consumers' registry (so shutdownGracefully waits for them to go quiet);
        // publishing through it does nothing and there is no host:port to probe.
        runner.withUserConfiguration(Provider.class)
                .withPropertyValues("jupiter.registry.address=kubernetes://shop")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(JupiterClient.class).registry()).isEqualTo("kubernetes://shop");
                    assertThat(context.getBean(JupiterServer.class).awaitPublished(1000)).isTrue();
                    Health health = context.getBean(JupiterHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).doesNotContainKey("registryReachable");
                });
    }

    @Test
    void unreachableRegistryMakesTheServerDown() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        runner.withUserConfiguration(Provider.class)
                .withPropertyValues("jupiter.registry.address=default://127.0.0.1:" + closedPort)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Health health = context.getBean(JupiterHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails()).containsEntry("registryReachable", false);
                });
    }

    @Test
    void badPropertiesFailTheStartNamingTheProperty() {
        runner.withUserConfiguration(Provider.class).withPropertyValues("jupiter.server.port=70000")
                .run(context -> assertThat(invalid(context.getStartupFailure()))
                        .hasMessageContaining("jupiter.server.port = 70000")
                        .hasMessageContaining("expected"));
        runner.withUserConfiguration(Provider.class).withPropertyValues("jupiter.server.serializers=protostuff,xml")
                .run(context -> assertThat(invalid(context.getStartupFailure()))
                        .hasMessageContaining("jupiter.server.serializers")
                        .hasMessageContaining("'xml'"));
        runner.withPropertyValues("jupiter.client.timeout=0s")
                .run(context -> assertThat(invalid(context.getStartupFailure()))
                        .hasMessageContaining("jupiter.client.timeout"));
        runner.withPropertyValues("jupiter.monitor.enabled=true")
                .run(context -> assertThat(invalid(context.getStartupFailure()))
                        .hasMessageContaining("jupiter.monitor.password"));
        runner.withUserConfiguration(Consumer.class)
                .run(context -> assertThat(invalid(context.getStartupFailure()))
                        .hasMessageContaining("@JupiterReference on Consumer.caller(parameter 0: Greeter)")
                        .hasMessageContaining("jupiter.registry.address"));
    }

    @Test
    void monitorListensOnLoopbackWithItsPassword() {
        runner.withPropertyValues("jupiter.monitor.enabled=true", "jupiter.monitor.password=s3cret-pass",
                "jupiter.monitor.port=0").run(context -> {
                    assertThat(context).hasNotFailed();
                    InetSocketAddress console = context.getBean(MonitorServer.class).address();
                    assertThat(console.getAddress().isLoopbackAddress()).isTrue();
                    try (Socket socket = new Socket(console.getAddress(), console.getPort())) {
                        assertThat(socket.isConnected()).isTrue();
                    }
                });
        runner.withPropertyValues("jupiter.monitor.enabled=true", "jupiter.monitor.password=short")
                .run(context -> assertThat(invalid(context.getStartupFailure()))
                        .hasMessageContaining("jupiter.monitor.password")
                        .hasMessageContaining("at least 8"));
    }

    @Test
    void worksWithoutActuatorMicrometerAndMonitor() {
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class, InfoContributor.class,
                        MeterBinder.class, MonitorServer.class))
                .withUserConfiguration(Provider.class)
                .withPropertyValues("jupiter.monitor.enabled=true")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(JupiterServer.class)
                            .doesNotHaveBean(JupiterHealthIndicator.class)
                            .doesNotHaveBean(JupiterInfoContributor.class)
                            .doesNotHaveBean("jupiterMeterBinder").doesNotHaveBean("jupiterMonitor");
                    assertThat(context.getBean(JupiterServer.class).localAddress()).isNotNull();
                });
    }

    @Test
    void serverDisabledLeavesTheClient() {
        runner.withUserConfiguration(Provider.class).withPropertyValues("jupiter.server.enabled=false")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(JupiterServer.class)
                            .doesNotHaveBean(JupiterHealthIndicator.class).hasSingleBean(JupiterClient.class);
                });
    }

    /** The {@link InvalidJupiterPropertyException} among the causes of a failed start. */
    private static Throwable invalid(Throwable failure) {
        assertThat(failure).as("the context failed to start").isNotNull();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidJupiterPropertyException) {
                return t;
            }
        }
        throw new AssertionError("no InvalidJupiterPropertyException in", failure);
    }
}
