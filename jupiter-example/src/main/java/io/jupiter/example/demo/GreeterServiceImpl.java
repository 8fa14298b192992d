package io.jupiter.example.demo;

import io.jupiter.rpc.ServiceProviderImpl;
import java.util.concurrent.CompletableFuture;

/** The demo's provider. */
@ServiceProviderImpl(version = "1.0.0")
public final class GreeterServiceImpl implements GreeterService {

    @Override
    public String greet(String name) {
        return "Hello, " + name + "!";
    }

    @Override
    public int add(int a, int b) {
        return a + b;
    }

    @Override
    public CompletableFuture<String> greetLater(String name) {
        return CompletableFuture.completedFuture("Hello later, " + name + "!");
    }

    @Override
    public String refuse(String name) throws GreetingRefusedException {
        throw new GreetingRefusedException("no greeting for " + name);
    }

    @Override
    public String crash(String name) {
        throw new IllegalStateException("greeter crashed on " + name);
    }

    @Override
    public String slow(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return "done";
    }
}
