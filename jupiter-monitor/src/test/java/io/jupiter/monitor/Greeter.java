package io.jupiter.monitor;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.CompletableFuture;

@ServiceProvider(group = "test", name = "greeter")
public interface Greeter {
    String greet(String name);

    CompletableFuture<String> greetLater(String name);
}
