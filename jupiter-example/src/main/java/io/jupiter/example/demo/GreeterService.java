package io.jupiter.example.demo;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.CompletableFuture;

/** The demo's service. */
@ServiceProvider(group = "demo", name = "greeter")
public interface GreeterService {

    String greet(String name);

    int add(int a, int b);

    CompletableFuture<String> greetLater(String name);

    String refuse(String name) throws GreetingRefusedException;

    String crash(String name);

    String slow(long millis) throws InterruptedException;

    /** A business exception the service declares. */
    final class GreetingRefusedException extends Exception {
        private static final long serialVersionUID = 1L;

        public GreetingRefusedException(String message) {
            super(message);
        }
    }
}
