package io.jupiter.spring.boot.autoconfigure;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A provider application: Spring Boot with its web server and Actuator, serving {@link GreeterImpl}. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class ProviderApplication {

    @Bean
    GreeterImpl greeterImpl() {
        return new GreeterImpl();
    }
}
