package io.jupiter.rpc.tail;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/** Answers its name and counts the calls it ran. */
final class TailServiceImpl implements TailService {

    private final String name;
    final AtomicLong calls = new AtomicLong();

    TailServiceImpl(String name) {
        this.name = name;
    }

    @Override
    public String who() {
        calls.incrementAndGet();
        return name;
    }

    @Override
    public String whoAfter(long millis) throws InterruptedException {
        calls.incrementAndGet();
        Thread.sleep(millis);
        return name;
    }

    @Override
    public CompletableFuture<String> whoLater() {
        calls.incrementAndGet();
        return CompletableFuture.completedFuture(name);
    }
}
