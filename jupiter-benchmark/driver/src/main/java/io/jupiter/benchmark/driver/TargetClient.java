package io.jupiter.benchmark.driver;

import java.util.concurrent.CompletableFuture;

/** A connected client of a {@link BenchmarkTarget}: one call, blocking or not. Used by many threads at once. */
public interface TargetClient extends AutoCloseable {

    /** One blocking call; checks the reply and throws if the call failed or the reply is wrong. */
    void call() throws Exception;

    /** One call that returns at once; the future completes with the reply, or exceptionally if the call failed. */
    CompletableFuture<?> callAsync();

    /** Closes the client's connections and threads. */
    @Override
    void close();
}
