package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.SojournLimit;
import io.jupiter.rpc.internal.WorkerPool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The built-in provider pool: a {@link WorkerPool} of {@code providerThreads} threads and a bounded queue, which
 * sheds ({@code SERVER_BUSY}) the requests that waited longer than its {@link SojournLimit} allows.
 */
final class PoolExecutor implements ProviderExecutor {

    private final WorkerPool pool;

    /** @param sojournLimit how long a request may wait before it is shed; {@code null}: as long as it is queued */
    PoolExecutor(ProviderPool settings, SojournLimit sojournLimit) {
        this.pool = new WorkerPool("jupiter-provider", settings.threads(), settings.capacity(),
                settings.parallelism(), TimeUnit.MICROSECONDS.toNanos(settings.stallMicros()),
                TimeUnit.MICROSECONDS.toNanos(settings.spinMicros()), sojournLimit);
    }

    @Override
    public void execute(ProviderTask request) {
        pool.execute(request);
    }

    @Override
    public String busyDetail() {
        return pool.activeCount() + " of " + pool.maxThreads() + " threads busy and " + pool.queuedCount()
                + " requests queued";
    }

    @Override
    public boolean isShutdown() {
        return pool.isShutdown();
    }

    @Override
    public void shutdown() {
        pool.shutdown();
    }

    @Override
    public boolean awaitTermination(long nanos) throws InterruptedException {
        return pool.awaitTermination(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public List<ProviderTask> shutdownNow() {
        List<ProviderTask> left = new ArrayList<>();
        for (WorkerPool.Task task : pool.shutdownNow()) {
            left.add((ProviderTask) task);
        }
        return left;
    }
}
