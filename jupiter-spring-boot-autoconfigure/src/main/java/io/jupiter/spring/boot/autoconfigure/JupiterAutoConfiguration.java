package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.micrometer.JupiterMeterBinder;
import io.jupiter.micrometer.observation.RpcHistograms;
import io.jupiter.monitor.MonitorServer;
import io.jupiter.rpc.JupiterClient;
import io.jupiter.rpc.JupiterServer;
import io.jupiter.rpc.filter.Filter;
import io.jupiter.serialization.SerializerType;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Jupiter for a Spring Boot application: a {@link JupiterServer} serving the beans whose class carries
 * {@code @ServiceProviderImpl} (started and drained by {@link JupiterServerLifecycle}), a {@link JupiterClient} whose
 * proxies {@code @JupiterReference} injects, and, when the application has them, an Actuator health indicator and
 * info contributor, Micrometer meters and the monitor console. Configured by {@link JupiterProperties}; a bean of
 * the application's own replaces the server or client. Every {@link Filter} bean (such as the Observation filter of
 * {@link JupiterObservationAutoConfiguration}) is installed on both, in the order of the beans.
 */
@AutoConfiguration
@EnableConfigurationProperties(JupiterProperties.class)
public class JupiterAutoConfiguration {

    private static final String SERVER_ENABLED = "jupiter.server.enabled";

    /** The application's client; closed after the server drained, so services may call others while draining. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public JupiterClient jupiterClient(JupiterProperties properties, Environment environment,
                                       ObjectProvider<Filter> filters) {
        JupiterProperties.Client client = properties.getClient();
        JupiterClient.Builder builder = JupiterClient.builder();
        filters.orderedStream().forEach(builder::interceptor);
        String appName = client.getAppName() != null ? client.getAppName()
                : environment.getProperty("spring.application.name");
        PropertyCheck.apply("jupiter.client.app-name", appName, builder::appName);
        PropertyCheck.apply("jupiter.client.registry", client.getRegistry() != null ? client.getRegistry()
                : properties.getRegistry().getAddress(), builder::registry);
        PropertyCheck.apply("jupiter.client.consumer-threads", client.getConsumerThreads(), builder::consumerThreads);
        PropertyCheck.apply("jupiter.client.max-in-flight", client.getMaxInFlight(), builder::maxInFlight);
        PropertyCheck.apply("jupiter.client.propagate-deadline", client.getPropagateDeadline(),
                builder::propagateDeadline);
        PropertyCheck.apply("jupiter.client.metrics", client.getMetrics(), builder::metrics);
        PropertyCheck.apply("jupiter.client.timeout", client.getTimeout(), timeout -> {
            if (timeout.toMillis() <= 0) {
                throw new IllegalArgumentException("timeout: " + timeout + " (expected: at least 1 ms)");
            }
        });
        PropertyCheck.apply("jupiter.client.serializer", client.getSerializer(), SerializerType::parse);
        return builder.build();
    }

    /** Makes the proxies {@code @JupiterReference} asks for. */
    @Bean
    @ConditionalOnMissingBean
    public ReferenceFactory jupiterReferenceFactory(ObjectProvider<JupiterClient> client,
                                                    JupiterProperties properties, ConfigurableBeanFactory beans) {
        return new ReferenceFactory(client, properties.getClient(), beans::resolveEmbeddedValue);
    }

    /** Injects {@code @JupiterReference} fields. */
    @Bean
    public static ReferenceFieldInjector jupiterReferenceFieldInjector(ObjectProvider<ReferenceFactory> factory) {
        return new ReferenceFieldInjector(factory);
    }

    /** Injects {@code @JupiterReference} constructor and method parameters. */
    @Bean
    public static BeanFactoryPostProcessor jupiterReferenceResolverInstaller() {
        return ReferenceCandidateResolver.installer();
    }

    /** The provider side. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = SERVER_ENABLED, havingValue = "true", matchIfMissing = true)
    static class ServerConfiguration {

        /** The server; it binds only if there are services (see {@link JupiterServerLifecycle}). */
        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        JupiterServer jupiterServer(JupiterProperties properties, ObjectProvider<Filter> filters) {
            JupiterProperties.Server server = properties.getServer();
            JupiterServer.Builder builder = JupiterServer.builder();
            filters.orderedStream().forEach(builder::interceptor);
            PropertyCheck.apply("jupiter.server.host", server.getHost(), builder::host);
            PropertyCheck.apply("jupiter.server.port", server.getPort(), builder::port);
            PropertyCheck.apply("jupiter.server.advertised-host", server.getAdvertisedHost(), builder::advertisedHost);
            PropertyCheck.apply("jupiter.server.registry", registryOf(properties), builder::registry);
            PropertyCheck.apply("jupiter.server.provider-threads", server.getProviderThreads(),
                    builder::providerThreads);
            PropertyCheck.apply("jupiter.server.queue-capacity", server.getQueueCapacity(), builder::queueCapacity);
            PropertyCheck.apply("jupiter.server.weight", server.getWeight(), builder::weight);
            PropertyCheck.apply("jupiter.server.conn-count", server.getConnCount(), builder::connCount);
            PropertyCheck.apply("jupiter.server.metrics", server.getMetrics(), builder::metrics);
            if (!server.getSerializers().isEmpty()) {
                PropertyCheck.apply("jupiter.server.serializers", server.getSerializers(), ids -> {
                    List<SerializerType> types = new ArrayList<>();
                    for (String id : ids) {
                        types.add(SerializerType.parse(id));
                    }
                    builder.serializers(types.toArray(SerializerType[]::new));
                });
            }
            if (server.getShutdownTimeout().toMillis() <= 0) {
                throw PropertyCheck.invalid("jupiter.server.shutdown-timeout", server.getShutdownTimeout()
                        + " (expected: at least 1 ms)");
            }
            return builder.build();
        }

        /** Starts, publishes, unpublishes and drains the server. */
        @Bean
        JupiterServerLifecycle jupiterServerLifecycle(JupiterServer server, JupiterProperties properties,
                                                      ListableBeanFactory beans) {
            return new JupiterServerLifecycle(server, beans, properties.getServer().getShutdownTimeout());
        }

        /** Health component {@code jupiter}. */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(HealthIndicator.class)
        @ConditionalOnEnabledHealthIndicator("jupiter")
        static class HealthConfiguration {

            @Bean
            @ConditionalOnMissingBean(name = "jupiterHealthIndicator")
            JupiterHealthIndicator jupiterHealthIndicator(JupiterServer server, JupiterServerLifecycle lifecycle,
                                                          JupiterProperties properties) {
                return new JupiterHealthIndicator(server, lifecycle, registryOf(properties));
            }
        }

        /** {@code jupiter} in the info endpoint: services provided and consumed. */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(InfoContributor.class)
        static class InfoConfiguration {

            @Bean
            @ConditionalOnMissingBean(name = "jupiterInfoContributor")
            JupiterInfoContributor jupiterInfoContributor(JupiterServerLifecycle lifecycle, JupiterClient client) {
                return new JupiterInfoContributor(lifecycle, client);
            }
        }
    }

    /** Micrometer meters of the server and the client; Spring Boot binds every {@code MeterBinder} bean. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({JupiterMeterBinder.class, MeterBinder.class})
    static class MicrometerConfiguration {

        @Bean
        @ConditionalOnMissingBean
        JupiterMeterBinder jupiterMeterBinder(ObjectProvider<JupiterServer> server, JupiterClient client) {
            return JupiterMeterBinder.of(server.getIfAvailable(), client);
        }

        /** Percentile histograms for the call timers of the Observation filter (p50/p99 in Prometheus). */
        @Bean
        @ConditionalOnMissingBean(name = "jupiterRpcHistograms")
        MeterFilter jupiterRpcHistograms() {
            return RpcHistograms.meterFilter();
        }
    }

    /** The telnet console, when {@code jupiter.monitor.enabled}: loopback and a password by default. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MonitorServer.class)
    @ConditionalOnProperty(name = "jupiter.monitor.enabled", havingValue = "true")
    static class MonitorConfiguration {

        @Bean(initMethod = "start", destroyMethod = "close")
        @ConditionalOnMissingBean
        MonitorServer jupiterMonitor(JupiterProperties properties, ObjectProvider<JupiterServer> server,
                                     JupiterClient client) {
            JupiterProperties.Monitor monitor = properties.getMonitor();
            if (monitor.getPassword() == null) {
                throw PropertyCheck.invalid("jupiter.monitor.password", "not set (expected: at least 8 characters "
                        + "when jupiter.monitor.enabled=true)");
            }
            MonitorServer.Builder builder = MonitorServer.builder();
            PropertyCheck.apply("jupiter.monitor.password", monitor.getPassword().toCharArray(), builder::password);
            PropertyCheck.apply("jupiter.monitor.host", monitor.getHost(), builder::host);
            PropertyCheck.apply("jupiter.monitor.port", monitor.getPort(), builder::port);
            PropertyCheck.apply("jupiter.monitor.http-port", monitor.getHttpPort(), builder::httpPort);
            server.ifAvailable(builder::server);
            builder.client(client);
            return builder.build();
        }
    }

    private static String registryOf(JupiterProperties properties) {
        String own = properties.getServer().getRegistry();
        return own != null ? own : properties.getRegistry().getAddress();
    }
}
