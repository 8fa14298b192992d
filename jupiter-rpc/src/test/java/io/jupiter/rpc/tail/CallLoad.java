package io.jupiter.rpc.tail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Threads that call a method in a loop, each call counted by the provider name it returned, or as failed; bounded
 * by a call count and stopped by {@link #close()} at the latest.
 */
final class CallLoad implements AutoCloseable {

    private final List<Thread> threads = new ArrayList<>();
    private final ConcurrentHashMap<String, LongAdder> byProvider = new ConcurrentHashMap<>();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong calls = new AtomicLong();
    private final List<Throwable> failures = new ArrayList<>();
    private volatile boolean stopped;

    CallLoad(int threadCount, long maxCalls, Supplier<String> call) {
        for (int i = 0; i < threadCount; i++) {
            Thread t = new Thread(() -> {
                while (!stopped && calls.incrementAndGet() <= maxCalls) {
                    try {
                        byProvider.computeIfAbsent(call.get(), k -> new LongAdder()).increment();
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                        synchronized (failures) {
                            if (failures.size() < 10) {
                                failures.add(e);
                            }
                        }
                    }
                }
            }, "call-load-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** Calls answered by {@code provider} so far. */
    long servedBy(String provider) {
        LongAdder n = byProvider.get(provider);
        return n == null ? 0 : n.sum();
    }

    /** Up to ten failures, for assertion messages. */
    List<Throwable> failures() {
        synchronized (failures) {
            return List.copyOf(failures);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
    }
}
