package io.jupiter.rpc.internal.provider;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An application's {@link Executor} (or one the server made for itself, such as a virtual thread per call) in place
 * of the built-in pool. At most {@code maxPending} calls are handed to it and not finished at once: beyond, calls are
 * refused ({@code SERVER_BUSY}) rather than queued without bound in an executor we cannot see into. An executor the
 * application gave is the application's: it is never shut down here; one the server made ({@code owned}) is.
 */
final class ApplicationExecutor implements ProviderExecutor {

    private final String name;
    private final Executor executor;
    private final boolean owned;
    private final int maxPending;
    private final AtomicInteger pending = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private volatile boolean shutdown;
    /** Set by {@link #shutdownNow}: calls that start from now on are dropped instead of run. */
    private volatile boolean dropping;

    ApplicationExecutor(String name, Executor executor, boolean owned, int maxPending) {
        this.name = name;
        this.executor = executor;
        this.owned = owned;
        this.maxPending = maxPending;
    }

    @Override
    public void execute(ProviderTask request) {
        if (shutdown) {
            throw new RejectedExecutionException(name + " is shut down");
        }
        if (pending.incrementAndGet() > maxPending) {
            finished();
            throw new RejectedExecutionException(name + " has " + maxPending + " calls not finished");
        }
        try {
            executor.execute(() -> {
                try {
                    if (dropping) {
                        request.discard();
                    } else {
                        request.run();
                    }
                } finally {
                    finished();
                }
            });
        } catch (RuntimeException e) {
            finished();
            throw e instanceof RejectedExecutionException r ? r
                    : new RejectedExecutionException(name + " refused a call: " + e, e);
        }
    }

    private void finished() {
        if (pending.decrementAndGet() == 0 && shutdown) {
            lock.lock();
            try {
                idle.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public String busyDetail() {
        return pending.get() + " calls handed to " + name + " and not finished (at most " + maxPending + ")";
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public void shutdown() {
        shutdown = true;
        if (owned && executor instanceof ExecutorService service) {
            service.shutdown();
        }
    }

    @Override
    public boolean awaitTermination(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        lock.lock();
        try {
            while (pending.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                idle.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
        if (owned && executor instanceof ExecutorService service) {
            return service.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        return true;
    }

    @Override
    public List<ProviderTask> shutdownNow() {
        dropping = true;
        shutdown();
        if (owned && executor instanceof ExecutorService service) {
            // Tasks it never started: each drops its request (releases the frame and the admission) as it runs.
            for (Runnable neverStarted : service.shutdownNow()) {
                neverStarted.run();
            }
        }
        return List.of();
    }

    @Override
    public String toString() {
        return name;
    }
}
