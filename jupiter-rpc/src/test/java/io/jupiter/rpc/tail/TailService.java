package io.jupiter.rpc.tail;

import io.jupiter.rpc.ServiceProvider;
import java.util.concurrent.CompletableFuture;

@ServiceProvider(group = "test", name = "tail")
public interface TailService {

    /** The name of the provider that answered. */
    String who();

    /** Waits {@code millis}, then answers the provider's name. */
    String whoAfter(long millis) throws InterruptedException;

    /** {@link #who()}, asynchronously. */
    CompletableFuture<String> whoLater();
}
