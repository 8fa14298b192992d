/**
 * The consumer side: proxies, in-flight calls, response reading. Not API.
 *
 * <p>Every call of a proxy method runs the pipeline {@link io.jupiter.rpc.internal.consumer.CallStage#pipeline}
 * built for that method: context, interceptors, cluster strategy, then
 * {@link io.jupiter.rpc.internal.consumer.Dispatch}, the one place where a call is sent.
 */
package io.jupiter.rpc.internal.consumer;
