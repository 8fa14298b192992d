package io.jupiter.protocol.http;

import io.jupiter.rpc.filter.Interceptor;
import io.jupiter.rpc.filter.Invocation;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts the calls a server's provider chain invoked: proof that a foreign call went through it. */
final class CountingInterceptor implements Interceptor {

    private final AtomicInteger seen = new AtomicInteger();

    @Override
    public void beforeInvoke(Invocation invocation) {
        seen.incrementAndGet();
    }

    /** The calls seen so far. */
    int seen() {
        return seen.get();
    }
}
