package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.CompletableFuture;

@ServiceProvider(group = "test", name = "greeter")
public interface Greeter {
    String greet(String name);

    /** Blocks until the test lets it finish (see {@link GreeterImpl#gate}). */
    CompletableFuture<String> greetSlowly(String name);
}
