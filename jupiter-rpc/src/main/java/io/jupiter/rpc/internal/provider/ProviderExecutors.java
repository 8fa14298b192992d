package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.SojournLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The executors that run provider calls off the IO threads, from start to stop: the server's (the built-in pool, an
 * application's executor, or virtual threads; none when calls run on the IO threads) and the services' own.
 */
final class ProviderExecutors {

    /** {@code null}: calls run on the IO threads. */
    private final ProviderExecutor pool;
    private final int queueCapacity;
    private final ServiceRegistry services;

    /**
     * @param executor        runs provider calls instead of the built-in pool; {@code null}: the built-in pool
     * @param ownsExecutor    whether the server made {@code executor} (it is then shut down with the server)
     * @param settings        the built-in pool (0 threads: calls run on the IO threads) and its queue, whose capacity
     *                        also bounds the calls handed to an {@code executor} and not finished
     */
    ProviderExecutors(ProviderPool settings, Executor executor, boolean ownsExecutor,
                      ServiceRegistry services) {
        int queueCapacity = settings.capacity();
        this.queueCapacity = queueCapacity;
        this.services = services;
        if (executor != null) {
            this.pool = new ApplicationExecutor(ownsExecutor ? "the provider's virtual threads"
                    : "the provider executor " + executor, executor, ownsExecutor, queueCapacity);
        } else if (settings.threads() > 0) {
            this.pool = new PoolExecutor(settings, sojournLimit(settings));
        } else {
            this.pool = null;
        }
    }

    /**
     * How long a request may wait for a pool thread ({@code queueTargetMillis}, {@code queueIntervalMillis});
     * {@code null} when the target is 0 (as long as the queue holds it).
     */
    static SojournLimit sojournLimit(ProviderPool queue) {
        long target = queue.targetMillis();
        if (target == 0) {
            return null;
        }
        long interval = Math.max(target, queue.intervalMillis());
        return new SojournLimit(TimeUnit.MILLISECONDS.toNanos(target), TimeUnit.MILLISECONDS.toNanos(interval));
    }

    /** The server's executor, or {@code null} when calls run on the IO threads. */
    ProviderExecutor pool() {
        return pool;
    }

    /**
     * The executor of a service's own calls: the application's {@code executor}, never shut down here, with at most
     * the server's queue capacity of calls handed to it and not finished at once.
     */
    ProviderExecutor forService(ServiceEntry entry, Executor executor) {
        return new ApplicationExecutor("the executor of " + entry.key(), executor, false, queueCapacity);
    }

    /**
     * Stops every executor taking calls and waits until the calls taken have run, up to {@code deadlineNanos}.
     * Returns whether they all finished in time.
     */
    boolean drain(long deadlineNanos) throws InterruptedException {
        boolean finished = true;
        for (ProviderExecutor executor : all()) {
            executor.shutdown();
            finished &= executor.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()));
        }
        return finished;
    }

    /** Stops every executor: calls still queued after 5 s are dropped, their buffers released. */
    void close() {
        for (ProviderExecutor executor : all()) {
            executor.shutdown();
            try {
                if (!executor.awaitTermination(TimeUnit.SECONDS.toNanos(5))) {
                    discard(executor.shutdownNow());
                    executor.awaitTermination(TimeUnit.SECONDS.toNanos(1));
                }
            } catch (InterruptedException e) {
                discard(executor.shutdownNow());
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Requests that will not run: their buffers are released, their callers learn it from the closed connection. */
    private static void discard(List<ProviderTask> requests) {
        for (ProviderTask request : requests) {
            request.discard();
        }
    }

    /** The server's executor (if any) and the services' own. */
    private List<ProviderExecutor> all() {
        List<ProviderExecutor> all = new ArrayList<>();
        if (pool != null) {
            all.add(pool);
        }
        for (ServiceEntry entry : services.all()) {
            ProviderExecutor own = entry.executor();
            if (own != null) {
                all.add(own);
            }
        }
        return all;
    }
}
