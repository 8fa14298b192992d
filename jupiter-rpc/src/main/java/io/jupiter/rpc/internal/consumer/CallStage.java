package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.InvokeFuture;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.internal.filter.InterceptorChain;

/**
 * One stage of the consumer pipeline: every call of a proxy method goes through the same chain of stages, built once
 * per method when the proxy is built ({@link #pipeline}). The plain call is this chain with no user stage, not a
 * second path.
 *
 * <pre>
 *  proxy method ──► ContextStage              attachments and deadline: makes the call's DefaultInvocation when
 *                   │                         something needs one (interceptors, a request context,
 *                   │                         propagateDeadline)
 *                   ▼
 *                   ConsumerInterceptorStage  user interceptors and service-loaded filters, once per call;
 *                   │                         only in the chain when there are some
 *                   ▼
 *                   ThrottleStage             client-side throttling: refuses a call here while providers refuse
 *                   │                         or time out most calls; only in the chain when it is on
 *                   ▼
 *                   ClusterStage              fail-fast, fail-over, fail-safe, hedged or broadcast: how many
 *                   │                         attempts, on which provider ({@link Dispatch#select})
 *                   ▼ (per attempt)
 *                   Dispatch                  serialize → write → wait or future; method timer (metrics)
 * </pre>
 *
 * <p>A stream method's pipeline is one stage, {@link StreamCallStage}: it opens the stream and runs the
 * interceptors around the stream's life.
 *
 * <p>A stage gets the call's arguments and its invocation ({@code null} when nothing asked for one) and hands them
 * on; a synchronous call returns the value or throws, an asynchronous one returns a future that a stage never
 * fails by throwing. Nothing is allocated per call by a stage that has nothing to do.
 *
 * <p>{@link Dispatch} is not a stage: it makes one <em>attempt</em> on the provider the cluster stage chose and
 * passes to it, and the cluster stage calls it once per attempt. A stage's input is the call (arguments and
 * invocation); an attempt's is the call and a provider, which the chain would otherwise have to carry in shared
 * state.
 */
abstract class CallStage {

    /** A synchronous call: the value, or the exception the call ended with. */
    abstract Object invokeSync(Object[] arguments, DefaultInvocation invocation) throws Throwable;

    /** An asynchronous call (a method returning a future, or {@code InvokeType.ASYNC}). */
    abstract InvokeFuture<Object> invokeAsync(Object[] arguments, DefaultInvocation invocation);

    /**
     * The pipeline of one proxy method, outermost stage first.
     *
     * @param chain the proxy's interceptors and filters, {@code null} when there are none
     */
    static CallStage pipeline(MethodInfo info, InterceptorChain chain, Dispatch dispatch) {
        return pipeline(info, chain, dispatch, null);
    }

    /**
     * The pipeline of one proxy method, outermost stage first.
     *
     * @param chain    the proxy's interceptors and filters, {@code null} when there are none
     * @param throttle the proxy's client-side throttling, {@code null} when it is off
     */
    static CallStage pipeline(MethodInfo info, InterceptorChain chain, Dispatch dispatch, AdaptiveThrottle throttle) {
        CallStage stage = ClusterStage.of(info, dispatch);
        if (throttle != null) {
            stage = new ThrottleStage(throttle, info, stage);
        }
        if (chain != null) {
            stage = new ConsumerInterceptorStage(chain, stage);
        }
        ProxySettings settings = dispatch.settings;
        return new ContextStage(settings, info, chain != null || settings.propagateDeadline, stage);
    }
}
