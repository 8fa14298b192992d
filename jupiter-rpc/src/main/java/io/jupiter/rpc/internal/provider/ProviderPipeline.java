package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.SerializerType;
import java.util.Set;

/**
 * The provider's one pipeline: every request goes through these stages, in this order, here and nowhere else. Each
 * stage is a class with one job; the {@link ThreadChooser} alone decides which thread runs the next one.
 *
 * <pre>
 *  frame ──► AdmissionStage     IO thread: caller token (TokenGate), draining, the connection's limits, the
 *            │                  adaptive concurrency limit (opt-in), app flow control; nothing read yet
 *            ▼
 *            ThreadChooser      IO thread, or hand-over to the pool (SERVER_BUSY when full, or when the request
 *            │                  waited longer than the pool's SojournLimit allows when it leaves the queue)
 *            │
 *            ▼
 *            ReadStage          accepted serializer, body read; the serializer runs, once the envelope is read:
 *            │  └ LookupStage   service, pinned serializers, method, authorizer (no argument read if refused)
 *            ▼
 *            ThreadChooser      the call here (IO thread if its method runs there), or on its service's executor,
 *            │                  or on the pool; timed for adaptive dispatch
 *            ▼
 *            InterceptorStage   deadline (checked here, after any queue), beforeInvoke, the call's context (only
 *            │                  when interceptors or attachments)
 *            │
 *            ▼
 *            InvokeStage        method resolution, the call, the method timer; a CompletionStage answers later
 *            │
 *            ▼
 *            RespondStage       the answer frame (result, error, or any stage's refusal), then afterInvoke
 * </pre>
 *
 * <p>A stream frame leaves at admission (after the caller token) for the {@link StreamFrameStage}; a stream's open
 * then goes through the {@link StreamOpenStage}: the same serializer check, lookup (stream methods only) and
 * authorizer as a request, then the interceptors and the method on the stream's own thread.
 *
 * <p>A throwable becomes a status in one place, {@link ProviderFailures}. A new step of the call is one
 * {@link ProviderStage} subclass, linked into {@link #call} below.
 */
final class ProviderPipeline {

    final RespondStage respond;
    final RpcMetrics metrics;
    final LookupStage lookup;
    final ReadStage read;
    /** The first call stage: what runs once a request is read and looked up. */
    final ProviderStage call;
    final ThreadChooser threads;
    /** {@code null}: no caller token is asked for. */
    final TokenGate tokenGate;
    final AdmissionStage admission;
    /** Stream frames, from admission; the opens go through the {@link StreamOpenStage}. */
    final StreamFrameStage streams;

    /** @param pool the server's provider executor; {@code null}: requests run on the IO threads */
    ProviderPipeline(ServiceRegistry services, Set<SerializerType> serializers, ProviderExecutor pool,
                     RpcMetrics metrics, ServerRuntime.Security security) {
        this.metrics = metrics;
        this.respond = new RespondStage(metrics);
        this.lookup = new LookupStage(services, security.authorizer());
        this.read = new ReadStage(serializers, services, respond);
        this.call = new InterceptorStage(respond, metrics, new InvokeStage(metrics, respond));
        this.threads = new ThreadChooser(this, pool);
        this.tokenGate = security.tokens() == null ? null
                : new TokenGate(security.tokens(), this, security.tokenTimeoutMillis());
        this.admission = new AdmissionStage(this, metrics, tokenGate);
        this.streams = new StreamFrameStage(new StreamOpenStage(read, services, security.authorizer(),
                metrics));
    }
}
