package io.jupiter.benchmark.overload;

import io.jupiter.rpc.ServiceProvider;

/** The service the overload scenarios call. */
@ServiceProvider(group = "overload", name = "work")
public interface Workload {

    /**
     * Waits {@code millis} (a database call holding a provider thread), then answers. {@code offeredNanos} is the
     * caller's {@code System.nanoTime()} when it offered the call: scenario and provider share one JVM, so the
     * provider can tell an execution that ended after the caller gave up.
     */
    String work(long offeredNanos, int millis);

    /** The provider's name, at once; fails on the provider's failing share of calls. */
    String who();
}
