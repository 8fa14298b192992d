package io.jupiter.testkit;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An executor that runs each task on a new daemon thread, for test tasks that block (reading a process's output,
 * making blocking calls) and for services that complete futures later.
 *
 * <p>Not the common pool: on a 2-core machine it has a single thread, and on JDK 19 and later
 * {@code CompletableFuture.runAsync}/{@code supplyAsync} use it even then (JDK 17 starts a thread per task instead),
 * so one blocked task stalls every other async task of the test JVM.
 */
public final class OwnThreads {

    /** Runs each task on a new daemon thread named {@code test-async-N}. */
    public static final Executor EXECUTOR = OwnThreads::start;

    private static final AtomicInteger counter = new AtomicInteger();

    private OwnThreads() {
    }

    private static void start(Runnable task) {
        Thread thread = new Thread(task, "test-async-" + counter.incrementAndGet());
        thread.setDaemon(true);
        thread.start();
    }
}
