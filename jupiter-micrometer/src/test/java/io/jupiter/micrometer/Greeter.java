package io.jupiter.micrometer;

import io.jupiter.rpc.ServiceProvider;

@ServiceProvider(group = "test", name = "greeter")
public interface Greeter {
    String greet(String name);
}
