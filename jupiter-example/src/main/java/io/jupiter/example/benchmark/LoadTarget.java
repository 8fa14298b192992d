package io.jupiter.example.benchmark;

import java.util.concurrent.CompletableFuture;

/** What the load runner calls: one request, blocking or not. */
interface LoadTarget extends AutoCloseable {

    /** One blocking call; throws if it failed. */
    void call() throws Exception;

    /** One call that returns at once. */
    CompletableFuture<?> callAsync();

    @Override
    void close();
}
