package io.jupiter.spring.xml;

import io.jupiter.rpc.ServiceProviderImpl;

@ServiceProviderImpl(version = "1.0.0")
public class GreeterImpl implements Greeter {
    @Override
    public String greet(String name) {
        return "Hello, " + name;
    }
}
