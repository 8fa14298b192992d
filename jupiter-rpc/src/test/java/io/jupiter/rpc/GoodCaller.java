package io.jupiter.rpc;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A well-behaved caller beside an attack: calls a unary method in a loop on a thread of its own, on its own client
 * and connection, and counts the calls that succeeded and failed.
 */
public final class GoodCaller implements AutoCloseable {

    private final AtomicLong succeeded = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean stopped;

    /** Starts calling {@code call}, which must return {@code expected}. */
    public GoodCaller(Supplier<Object> call, Object expected) {
        thread = new Thread(() -> {
            while (!stopped) {
                try {
                    Object answer = call.get();
                    if (expected.equals(answer)) {
                        succeeded.incrementAndGet();
                    } else {
                        fail(new AssertionError("answered " + answer));
                    }
                } catch (RuntimeException e) {
                    fail(e);
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(5); // a steady caller, not a flood
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "good-caller");
        thread.setDaemon(true);
        thread.start();
    }

    private void fail(Throwable error) {
        failed.incrementAndGet();
        firstFailure.compareAndSet(null, error);
    }

    public long succeeded() {
        return succeeded.get();
    }

    public long failed() {
        return failed.get();
    }

    /** The first failure, or {@code null}. */
    public Throwable firstFailure() {
        return firstFailure.get();
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.interrupt();
        thread.join(10_000);
    }
}
