package io.jupiter.example.spring.provider;

import io.jupiter.example.spring.api.Greeter;
import io.jupiter.rpc.ServiceProviderImpl;
import org.springframework.stereotype.Component;

/** Served because it is a bean whose class carries {@code @ServiceProviderImpl}. */
@ServiceProviderImpl(version = "1.0.0")
@Component
public class GreeterImpl implements Greeter {

    @Override
    public String greet(String name) {
        return "Hello, " + name + " (from Spring Boot)";
    }
}
