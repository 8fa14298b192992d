package io.jupiter.spring.boot.autoconfigure;

import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A provider application with Actuator and OpenTelemetry tracing, serving {@link GreeterImpl}. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class TracedProvider {

    @Bean
    GreeterImpl greeterImpl() {
        return new GreeterImpl();
    }

    @Bean
    SpanExporter spans() {
        return TracedWebConsumer.SPANS;
    }
}
