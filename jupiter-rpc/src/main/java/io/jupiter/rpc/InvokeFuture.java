package io.jupiter.rpc;

import java.util.concurrent.CompletableFuture;

/**
 * The result of a call that returns before the response arrives. Completes with the value, or exceptionally with a
 * {@link io.jupiter.rpc.exception.RpcException} (or the exception the method declares and the provider threw).
 * Callbacks run on a consumer thread, never on an IO thread.
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
