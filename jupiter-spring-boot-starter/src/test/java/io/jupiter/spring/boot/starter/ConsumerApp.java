package io.jupiter.spring.boot.starter;

import io.jupiter.spring.boot.JupiterReference;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** A consumer application: the starter, and one annotated constructor parameter. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(ConsumerApp.Welcome.class)
public class ConsumerApp {

    static class Welcome {
        private final Greeter greeter;

        Welcome(@JupiterReference(timeoutMillis = 10_000) Greeter greeter) {
            this.greeter = greeter;
        }

        String welcome(String name) {
            return greeter.greet(name) + "!";
        }
    }
}
