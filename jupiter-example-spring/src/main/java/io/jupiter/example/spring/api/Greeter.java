package io.jupiter.example.spring.api;

import io.jupiter.rpc.ServiceProvider;

/** The service both applications share. */
@ServiceProvider(group = "demo", name = "spring-greeter")
public interface Greeter {

    /** A greeting for {@code name}. */
    String greet(String name);
}
