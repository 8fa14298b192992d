/**
 * The provider side. Not API.
 *
 * <p>Every call and every stream's open goes down one chain of stages, each a
 * {@link io.jupiter.rpc.internal.provider.ProviderStage} with one job, built once per server in
 * {@link io.jupiter.rpc.internal.provider.ProviderChain}:
 *
 * <pre>
 *  frame ──► (TokenGate, StreamGate)  caller token; stream frames leave, an open comes back on its own thread
 *            AdmissionStage           calls: draining, connection limits, adaptive limit, app flow control
 *            ReadHandOffStage         calls: read on the IO thread, or on the pool
 *            ReadStage                serializer, body; ServiceLookup once the envelope is read
 *            CallHandOffStage         calls: IO thread (method runs there), the service's executor, or the pool
 *            DispatchTimerStage       calls: timed for adaptive dispatch
 *            InvocationStage          the invocation interceptors see, when needed
 *            DeadlineStage            just before the interceptors and the method: deadline
 *            InterceptorStage         beforeInvoke
 *            StreamForkStage          a call: InvokeStage; a stream's open: StreamInvokeStage
 *            Responder                every answer: value, failure, or a stage's Refusal
 * </pre>
 *
 * <p>A stage knows its next stage only as a {@code ProviderStage}, never the chain; a refusal is a
 * {@link io.jupiter.rpc.internal.provider.Refusal} answered in one place,
 * {@link io.jupiter.rpc.internal.provider.Responder}. A throwable becomes a status in
 * {@link io.jupiter.rpc.internal.provider.ProviderFailures} only, by the rule of
 * {@link io.jupiter.rpc.internal.StatusTable}. Around the chain, {@link io.jupiter.rpc.internal.provider.ServerRuntime}
 * wires the acceptor to the {@link io.jupiter.rpc.internal.provider.ServiceRegistry} (services),
 * the {@link io.jupiter.rpc.internal.provider.ConnectionTable} (connections and callers) and the
 * {@link io.jupiter.rpc.internal.provider.ProviderExecutors} (executors, drain, close);
 * {@link io.jupiter.rpc.internal.provider.Publication} keeps the services in a registry for
 * {@link io.jupiter.rpc.JupiterServer}, the facade.
 */
package io.jupiter.rpc.internal.provider;
