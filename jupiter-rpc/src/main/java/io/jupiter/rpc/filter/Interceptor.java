package io.jupiter.rpc.filter;

/**
 * Logic run before and after calls: on the consumer around each call of a proxy (once per call, outside the cluster
 * strategy: a call that fail-over retries is seen once, with the outcome the caller gets), on the provider around
 * each request of a service. Register one globally ({@code JupiterClient.Builder.interceptor},
 * {@code JupiterServer.Builder.interceptor}) or for one service ({@code ProxyBuilder.interceptor},
 * {@code JupiterServer.intercept}).
 *
 * <p>{@link #afterInvoke} runs exactly once for every call whose {@link #beforeInvoke} returned normally, also when a
 * later interceptor or the call itself failed, in the reverse order of {@code beforeInvoke}. The pair works alike for
 * sync, future and async calls and for provider methods that return a {@code CompletionStage}: {@code afterInvoke}
 * then runs on the thread that completes the call. Implementations must be thread-safe.
 */
public interface Interceptor {

    /**
     * Runs before the call. Throwing ends the call with that exception without running it: on the consumer the
     * caller gets it; on the provider the consumer gets the status of an {@link io.jupiter.rpc.exception.RpcException}
     * (e.g. {@code PROVIDER_FLOW_CONTROL}), else {@code SERVICE_UNEXPECTED_ERROR}.
     */
    default void beforeInvoke(Invocation invocation) {
    }

    /**
     * Runs after the call ended; {@link Invocation#status()} and {@link Invocation#elapsedNanos()} are set. Whatever
     * this throws is logged and ignored: the outcome is already decided.
     *
     * @param result the value on success, else {@code null}
     * @param error  the failure, else {@code null}
     */
    default void afterInvoke(Invocation invocation, Object result, Throwable error) {
    }

    /**
     * Provider side only: called on the thread that runs the service method, right before it runs (after every
     * {@code beforeInvoke}); the returned scope is closed on that same thread right after the method returned (for a
     * method returning a {@code CompletionStage}: once it returned the stage). Lets an interceptor make something
     * current for the method's own code, such as a tracing span. Default: nothing ({@code null}).
     */
    default MethodScope enterMethod(Invocation invocation) {
        return null;
    }

    /** What {@link #enterMethod} set up, undone on the same thread. */
    @FunctionalInterface
    interface MethodScope extends AutoCloseable {
        @Override
        void close();
    }
}
