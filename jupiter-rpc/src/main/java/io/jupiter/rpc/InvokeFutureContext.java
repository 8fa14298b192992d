package io.jupiter.rpc;

/**
 * Hands the future of the last {@link InvokeType#ASYNC} call made on this thread to its caller, as 1.3.1's
 * {@code InvokeFutureContext}:
 *
 * <pre>{@code
 * service.hello("x");                                   // returns null at once
 * InvokeFuture<String> f = InvokeFutureContext.future(String.class);
 * f.whenComplete((value, error) -> ...);
 * }</pre>
 */
public final class InvokeFutureContext {

    private static final ThreadLocal<InvokeFuture<?>> LAST = new ThreadLocal<>();

    private InvokeFutureContext() {
    }

    /**
     * The future of the last async call on this thread, and forgets it.
     *
     * @throws IllegalStateException if this thread made no async call since the last take
     */
    public static InvokeFuture<?> future() {
        InvokeFuture<?> future = LAST.get();
        if (future == null) {
            throw new IllegalStateException("no async call on this thread (take the future right after the call)");
        }
        // Cleared rather than removed: the thread's next async call then stores its future without a new entry.
        LAST.set(null);
        return future;
    }

    /** {@link #future()} typed to the method's return type. */
    @SuppressWarnings("unchecked")
    public static <V> InvokeFuture<V> future(Class<V> returnType) {
        return (InvokeFuture<V>) future();
    }

    /** For the runtime: records the future of an async call just made. */
    public static void set(InvokeFuture<?> future) {
        LAST.set(future);
    }
}
