package io.jupiter.registry.internal;

import io.jupiter.common.NamedThreadFactory;
import io.jupiter.common.ThrottledWarning;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread a registry client keeps its state on, so that state needs no locks and a slow registry never
 * blocks a caller: tasks are run on it, callers read the state through it, and closing lets queued work (a last
 * unregister) finish while delayed retries are dropped.
 *
 * <p>No exception can stop a worker: every task, run at once, delayed or periodic, is guarded, so one that throws is
 * logged (a WARN line at most every 10 s) and counted, the next task runs, and a periodic task keeps its period (a
 * plain {@link ScheduledThreadPoolExecutor} would swallow the exception into a future nobody reads and cancel a
 * periodic task for good). A registry names the steps of its tasks with {@link #step}; tests make a named step
 * throw with {@link #failNext} to show that discovery goes on.
 */
public final class RegistryWorker {

    private static final Logger log = LoggerFactory.getLogger(RegistryWorker.class);

    private final ScheduledThreadPoolExecutor executor;
    private final ThrottledWarning failed = new ThrottledWarning(log, 10, TimeUnit.SECONDS);
    private final AtomicLong failures = new AtomicLong();
    private final Map<String, RuntimeException> faults = new ConcurrentHashMap<>();

    /** A worker on a daemon thread named {@code threadName-N}. */
    public RegistryWorker(String threadName) {
        executor = new GuardedExecutor(new NamedThreadFactory(threadName, true));
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    /** The worker as a scheduler, for delayed and periodic tasks. */
    public ScheduledExecutorService executor() {
        return executor;
    }

    /** Tasks that threw so far (each was logged, and the worker went on). */
    public long taskFailures() {
        return failures.get();
    }

    /**
     * Marks a step of a task: throws the fault {@link #failNext} set for this step, once; does nothing otherwise.
     * Registries call it at each step a fault test should reach (list, watch, event, parse, notify...).
     */
    public void step(String name) {
        if (!faults.isEmpty()) {
            RuntimeException fault = faults.remove(name);
            if (fault != null) {
                throw fault;
            }
        }
    }

    /** Tests: the next time a task reaches {@link #step step(name)}, it throws {@code fault}. */
    public void failNext(String name, RuntimeException fault) {
        faults.put(name, fault);
    }

    /** Whether a fault set with {@link #failNext} is still waiting for its step (tests). */
    public boolean faultPending(String name) {
        return faults.containsKey(name);
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

    private Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                failures.incrementAndGet();
                failed.warn("registry task failed; the registry goes on with its next task (worker {})",
                        Thread.currentThread().getName(), e);
            }
        };
    }

    /** Guards every Runnable it is given: {@code execute} and {@code submit} go through {@code schedule}. */
    private final class GuardedExecutor extends ScheduledThreadPoolExecutor {

        GuardedExecutor(NamedThreadFactory threads) {
            super(1, threads);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            return super.schedule(guarded(command), delay, unit);
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period,
                                                      TimeUnit unit) {
            return super.scheduleAtFixedRate(guarded(command), initialDelay, period, unit);
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
                                                         TimeUnit unit) {
            return super.scheduleWithFixedDelay(guarded(command), initialDelay, delay, unit);
        }
    }
}
