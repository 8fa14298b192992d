package io.jupiter.spring.boot.starter;

import io.jupiter.rpc.ServiceProviderImpl;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A provider application: the starter, and one annotated bean. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class ProviderApp {

    @ServiceProviderImpl
    static class GreeterImpl implements Greeter {
        @Override
        public String greet(String name) {
            return "Hello, " + name;
        }
    }

    @Bean
    GreeterImpl greeter() {
        return new GreeterImpl();
    }
}
