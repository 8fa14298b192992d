package io.jupiter.registry.internal;

import io.jupiter.common.NamedThreadFactory;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread a registry client keeps its state on, so that state needs no locks and a slow registry never
 * blocks a caller: tasks are run on it, callers read the state through it, and closing lets queued work (a last
 * unregister) finish while delayed retries are dropped.
 */
public final class RegistryWorker {

    private static final Logger log = LoggerFactory.getLogger(RegistryWorker.class);

    private final ScheduledThreadPoolExecutor executor;

    /** A worker on a daemon thread named {@code threadName-N}. */
    public RegistryWorker(String threadName) {
        executor = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory(threadName, true));
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    /** The worker as a scheduler, for delayed and periodic tasks. */
    public ScheduledExecutorService executor() {
        return executor;
    }

    /** Runs {@code task} on the worker; once it is closed, drops it. */
    public void run(Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            log.debug("registry closed; dropping a task");
        }
    }

    /** Reads on the worker what {@code read} returns; {@code fallback} once closed, on a failure or an interrupt. */
    public <T> T query(Callable<T> read, T fallback) {
        try {
            return executor.submit(read).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fallback;
        } catch (ExecutionException | RejectedExecutionException e) {
            return fallback;
        }
    }

    /**
     * Polls {@code condition} on the worker until it holds or the timeout passes.
     *
     * @return whether it held in time ({@code false} once closed or if it failed)
     */
    public boolean await(Callable<Boolean> condition, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            try {
                if (executor.submit(condition).get()) {
                    return true;
                }
            } catch (ExecutionException | RejectedExecutionException e) {
                return false;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(5); // polling the worker's state, bounded by the deadline
        }
    }

    /**
     * Stops taking tasks, lets the queued ones finish (at most 5 s; delayed ones are dropped), runs
     * {@code whenDrained}, then interrupts whatever still runs.
     */
    public void close(Runnable whenDrained) {
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        whenDrained.run();
        executor.shutdownNow();
    }
}
