package io.jupiter.rpc;

import java.util.concurrent.CompletableFuture;

/**
 * The result of a call that returns before the response arrives. Completes with the value, or exceptionally with a
 * {@link io.jupiter.rpc.exception.RpcException} (or the exception the method declares and the provider threw).
 * Callbacks run on a consumer thread, with three exceptions: with adaptive callbacks on (off by default), once a proxy
 * method's completions have proved fast they run on the IO thread that read the response
 * ({@code JupiterClient.Builder.adaptiveCallbacks}); a client built with
 * {@code consumerThreads(0)} runs them on its IO threads; and when callbacks fall so far behind that twice the
 * client's in-flight window of completions is queued, further ones run on the IO thread that read them, which slows
 * that connection's reading down to the callbacks' pace instead of queueing without bound.
 *
 * @param <V> the method's return type
 */
public final class InvokeFuture<V> extends CompletableFuture<V> {

    private final long invokeId;
    /** What {@link #cancel} does beyond completing this future; {@code null}: nothing. */
    private volatile Runnable onCancel;

    /** For the runtime only. */
    public InvokeFuture(long invokeId) {
        this.invokeId = invokeId;
    }

    /** The invoke id this call carries on the wire. */
    public long invokeId() {
        return invokeId;
    }

    /**
     * For the runtime only: what to do when this future is {@linkplain #cancel cancelled} (stop waiting for the
     * response, and tell the provider, which then drops the call if it has not started).
     */
    public void onCancel(Runnable action) {
        this.onCancel = action;
    }

    /**
     * Completes this future with a {@link java.util.concurrent.CancellationException}, if not done yet; the call
     * then stops waiting for its response, and a provider of ours drops it if it has not started (a 1.3.1 provider
     * is not told, and runs it).
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        Runnable action = onCancel;
        if (cancelled && action != null) {
            action.run();
        }
        return cancelled;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
