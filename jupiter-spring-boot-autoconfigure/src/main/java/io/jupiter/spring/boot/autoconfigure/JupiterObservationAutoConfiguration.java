package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.micrometer.observation.RpcClientObservationConvention;
import io.jupiter.micrometer.observation.RpcObservationFilter;
import io.jupiter.micrometer.observation.RpcServerObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Observes every Jupiter call with the application's {@link ObservationRegistry} (Spring Boot makes one with Actuator):
 * an {@link RpcObservationFilter} bean, which {@link JupiterAutoConfiguration} installs on the client and the server
 * as it does every {@link io.jupiter.rpc.filter.Filter} bean. With micrometer-tracing's OpenTelemetry or Brave bridge
 * (e.g. {@code spring-boot-starter-opentelemetry}) the calls become spans of the application's traces; with a
 * {@code MeterRegistry}, timers. A {@link RpcClientObservationConvention} or {@link RpcServerObservationConvention}
 * bean replaces the default names and keys.
 */
@AutoConfiguration(afterName =
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({RpcObservationFilter.class, ObservationRegistry.class})
@ConditionalOnBean(ObservationRegistry.class)
public class JupiterObservationAutoConfiguration {

    /** The filter observing the client's calls and the server's requests. */
    @Bean
    @ConditionalOnMissingBean
    public RpcObservationFilter jupiterObservationFilter(ObservationRegistry registry,
                                                         ObjectProvider<RpcClientObservationConvention> client,
                                                         ObjectProvider<RpcServerObservationConvention> server) {
        return new RpcObservationFilter(registry, client.getIfUnique(), server.getIfUnique());
    }
}
