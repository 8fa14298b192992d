package io.jupiter.monitor;

import java.util.concurrent.CompletableFuture;

public class GreeterImpl implements Greeter {
    @Override
    public String greet(String name) {
        return "Hello, " + name;
    }

    @Override
    public CompletableFuture<String> greetLater(String name) {
        return CompletableFuture.completedFuture("Later, " + name);
    }
}
