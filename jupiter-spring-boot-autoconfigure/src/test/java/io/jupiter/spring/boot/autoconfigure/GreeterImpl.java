package io.jupiter.spring.boot.autoconfigure;

import io.jupiter.rpc.ServiceProviderImpl;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

@ServiceProviderImpl(version = "1.0.0")
public class GreeterImpl implements Greeter {

    /** Opened by a test to let the slow calls finish; open unless a test closes it. */
    volatile CountDownLatch gate = new CountDownLatch(0);
    /** Slow calls that have started. */
    final AtomicInteger slowStarted = new AtomicInteger();

    @Override
    public String greet(String name) {
        return "Hello, " + name;
    }

    @Override
    public CompletableFuture<String> greetSlowly(String name) {
        slowStarted.incrementAndGet();
        try {
            if (!gate.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return CompletableFuture.completedFuture("Finally, " + name);
    }
}
