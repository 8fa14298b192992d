/**
 * The provider side. Not API.
 *
 * <p>Every request goes through one chain of stages, each a class with one job, assembled in
 * {@link io.jupiter.rpc.internal.provider.ProviderPipeline}; one object, the
 * {@link io.jupiter.rpc.internal.provider.ThreadChooser}, decides which thread runs the next stage.
 *
 * <pre>
 *  frame ──► AdmissionStage     IO thread: caller token (TokenGate), draining, connection limits, app flow control
 *            ▼
 *            ThreadChooser      IO thread, or the pool
 *            ▼
 *            ReadStage          serializer, body; LookupStage once the envelope is read (service, method, caller)
 *            ▼
 *            ThreadChooser      IO thread (method runs there), the service's executor, or the pool
 *            ▼
 *            InterceptorStage   deadline, beforeInvoke, context (only with interceptors or attachments)
 *            ▼
 *            InvokeStage        the method, its timer; a CompletionStage answers later
 *            ▼
 *            RespondStage       the answer frame, then afterInvoke
 * </pre>
 *
 * <p>Stream frames leave the chain at admission, once the caller token was checked, for the
 * {@link io.jupiter.rpc.internal.provider.StreamFrameStage}; a stream's open is read, looked up, authorized and
 * intercepted by the {@link io.jupiter.rpc.internal.provider.StreamOpenStage} with the same checks.
 *
 * <p>A throwable becomes a status in {@link io.jupiter.rpc.internal.provider.ProviderFailures} only, by the rule of
 * {@link io.jupiter.rpc.internal.StatusTable}. Around the pipeline,
 * {@link io.jupiter.rpc.internal.provider.ServerRuntime}
 * wires the acceptor to the {@link io.jupiter.rpc.internal.provider.ServiceRegistry} (services),
 * the {@link io.jupiter.rpc.internal.provider.ConnectionTable} (connections and callers) and the
 * {@link io.jupiter.rpc.internal.provider.ProviderExecutors} (executors, drain, close);
 * {@link io.jupiter.rpc.internal.provider.Publication} keeps the services in a registry for
 * {@link io.jupiter.rpc.JupiterServer}, the facade.
 */
package io.jupiter.rpc.internal.provider;
