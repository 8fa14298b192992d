package io.jupiter.spring.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jupiter.registry.embedded.RegistryServer;
import io.jupiter.testkit.Await;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericXmlApplicationContext;
import org.springframework.core.env.MapPropertySource;

/** Real XML contexts: 1.3.1-style files serve and make a call through the embedded registry; refusals name the fix. */
class XmlNamespaceTest {

    private static final String DIR = "classpath:io/jupiter/spring/xml/";

    @Test
    void legacyFilesServeACallThroughTheRegistry() {
        try (RegistryServer registry = RegistryServer.builder().host("127.0.0.1").port(0).build()) {
            InetSocketAddress at = registry.start();
            Map<String, Object> properties = Map.of("registry.port", at.getPort());
            try (GenericXmlApplicationContext provider = context("provider.xml", properties)) {
                XmlServer server = provider.getBean(XmlServer.class);
                assertThat(server.server().localAddress().getPort()).isPositive();
                Await.until("the provider published", Duration.ofSeconds(10),
                        () -> registry.allProviders().size() == 1);
                assertThat(registry.allProviders().get(0).weight()).as("the provider's weight").isEqualTo(100);

                try (GenericXmlApplicationContext consumer = context("consumer.xml", properties)) {
                    Greeter greeter = consumer.getBean(Greeter.class);
                    assertThat(greeter.greet("xml")).isEqualTo("Hello, xml");
                    assertThat(consumer.getBean(XmlClient.class).client().appName()).isEqualTo("xml-consumer");
                    assertThat(provider.getBean(CountingInterceptor.class).seen).hasValue(1);
                }
            }
            Await.until("the provider withdrawn on close", Duration.ofSeconds(10),
                    () -> registry.allProviders().isEmpty());
        }
    }

    @Test
    void attributesWithoutCounterpartFailTheStartNamingTheReplacement() {
        assertThatThrownBy(() -> context("acceptor.xml", Map.of()).close())
                .hasMessageContaining("<jupiter:server id=\"jupiterServer\">: acceptor=\"jupiterAcceptor\"")
                .hasMessageContaining("set port (and host) on jupiter:server");
        assertThatThrownBy(() -> context("executor.xml", Map.of()).close())
                .hasMessageContaining("<jupiter:provider id=\"greeterProvider\">: executor=\"myExecutor\"")
                .hasMessageContaining("provider threads");
    }

    @Test
    void valuesWithoutCounterpartFailTheStartNamingTheReplacement() {
        assertThatThrownBy(() -> context("bad-serializer.xml", Map.of()).close())
                .rootCause().hasMessageContaining("serializerType=\"json\"")
                .hasMessageContaining("proto_stuff, hessian, kryo or java");
        assertThatThrownBy(() -> context("net-option.xml", Map.of()).close())
                .rootCause().hasMessageContaining("netOptions childOption SO_RCVBUF=\"8192\"")
                .hasMessageContaining("remove it");
    }

    @Test
    void unknownAttributesFailTheSchema() {
        assertThatThrownBy(() -> context("unknown-attribute.xml", Map.of()).close())
                .rootCause().hasMessageContaining("appNane");
    }

    private static GenericXmlApplicationContext context(String file, Map<String, Object> properties) {
        GenericXmlApplicationContext context = new GenericXmlApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
        context.load(DIR + file);
        context.refresh();
        return context;
    }
}
