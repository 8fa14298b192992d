package io.jupiter.example.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.jupiter.example.spring.consumer.ConsumerApplication;
import io.jupiter.example.spring.provider.ProviderApplication;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** The example's two applications, as docs/spring.md runs them, on free ports of 127.0.0.1. */
class SpringExampleTest {

    @Test
    void consumerGreetsThroughTheProvidersRegistry() throws IOException {
        int registryPort = freePort();
        try (ConfigurableApplicationContext provider = ProviderApplication.run("--example.registry.port="
                + registryPort, "--jupiter.server.port=0", "--server.port=0");
             ConfigurableApplicationContext consumer = ConsumerApplication.run(
                     "--jupiter.registry.address=default://127.0.0.1:" + registryPort)) {
            ConsumerApplication.Greetings greetings = consumer.getBean(ConsumerApplication.Greetings.class);
            assertThat(greetings.replies()).containsExactly("Hello, ada (from Spring Boot)",
                    "Hello, grace (from Spring Boot)", "Hello, linus (from Spring Boot)");
            assertThat(SpringApplication.exit(consumer)).as("exit code: failed calls").isZero();
            assertThat(provider.isActive()).isTrue();
        }
    }

    /** A port free a moment ago, for the registry (whose address both applications must know in advance). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
