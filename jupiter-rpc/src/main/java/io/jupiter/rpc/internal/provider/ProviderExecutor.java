package io.jupiter.rpc.internal.provider;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * What runs the provider's calls that do not run on an IO thread: the built-in pool or an application's executor.
 * Either one is bounded, and says why when it refuses a call.
 */
interface ProviderExecutor {

    /**
     * Runs {@code request} later, on another thread.
     *
     * @throws RejectedExecutionException when full or shut down; the request is then still the caller's
     */
    void execute(ProviderTask request);

    /** Why a request was refused just now, for the {@code SERVER_BUSY} answer: how full it is. */
    String busyDetail();

    boolean isShutdown();

    /** Refuses new requests; those already taken still run. */
    void shutdown();

    /** Waits until every request taken has run; {@code false} if the time ran out first. */
    boolean awaitTermination(long nanos) throws InterruptedException;

    /** {@link #shutdown()}, interrupts what runs where it can, and returns the requests that will not run. */
    List<ProviderTask> shutdownNow();
}
