package io.jupiter.rpc;

/** How a client proxy returns. */
public enum InvokeType {
    /**
     * The call blocks and returns the value, unless the method returns a
     * {@link java.util.concurrent.CompletableFuture}, in which case it returns at once with that future (1.3.1's
     * {@code AUTO}).
     */
    SYNC,
    /**
     * The call returns at once with the return type's default value; take the call's {@link InvokeFuture} right
     * after it with {@link InvokeFutureContext#future()}.
     */
    ASYNC
}
