package io.jupiter.spring.boot.starter;

import io.jupiter.rpc.ServiceProvider;

@ServiceProvider(group = "starter", name = "greeter")
public interface Greeter {
    String greet(String name);
}
