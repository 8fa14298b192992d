package io.jupiter.spring.xml;

import io.jupiter.rpc.ServiceProvider;

@ServiceProvider(group = "xml", name = "greeter")
public interface Greeter {
    String greet(String name);
}
