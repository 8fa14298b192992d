package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.spring.boot.JupiterReference;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A web application with Actuator and OpenTelemetry tracing whose handler calls {@link Greeter} over Jupiter. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(TracedWebConsumer.GreetingController.class)
public class TracedWebConsumer {

    /** Where both applications export their spans (each has its own SDK, as two processes would). */
    static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();

    @Bean
    SpanExporter spans() {
        return SPANS;
    }

    @RestController
    static class GreetingController {

        @JupiterReference(address = "${greeter.address}", timeoutMillis = 10_000)
        Greeter greeter;

        @GetMapping("/greet")
        String greet(@RequestParam("name") String name) {
            return greeter.greet(name);
        }
    }
}
