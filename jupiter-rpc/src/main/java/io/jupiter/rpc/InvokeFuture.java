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

    /** For the runtime only. */
    public InvokeFuture(long invokeId) {
        this.invokeId = invokeId;
    }

    /** The invoke id this call carries on the wire. */
    public long invokeId() {
        return invokeId;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
