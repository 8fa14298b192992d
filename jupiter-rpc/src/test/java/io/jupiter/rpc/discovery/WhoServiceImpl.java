package io.jupiter.rpc.discovery;

import java.util.concurrent.atomic.AtomicInteger;

public final class WhoServiceImpl implements WhoService {

    final String name;
    final AtomicInteger calls = new AtomicInteger();

    WhoServiceImpl(String name) {
        this.name = name;
    }

    @Override
    public String who() {
        calls.incrementAndGet();
        return name;
    }

    @Override
    public String slow(long millis) throws InterruptedException {
        calls.incrementAndGet();
        Thread.sleep(millis); // the slowness is what the test needs
        return name;
    }

    @Override
    public String fail() {
        calls.incrementAndGet();
        throw new IllegalStateException("business failure in " + name);
    }

    @Override
    public int count() {
        return calls.incrementAndGet();
    }
}
