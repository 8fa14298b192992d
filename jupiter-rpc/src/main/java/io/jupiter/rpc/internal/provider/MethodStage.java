package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.Throwables;
import io.jupiter.rpc.internal.filter.ContextHolder;
import io.jupiter.rpc.internal.filter.ServedRequest;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.transport.Status;

/**
 * A last stage of the chain, what a call's and a stream's open share: the method runs inside the call's context, and
 * a throwable it throws becomes the status {@link ProviderFailures} gives it ({@code METHOD}); the context is left
 * before the outcome goes on. How the method is called and what its outcome becomes are the subclass's: a call's
 * ({@link InvokeStage}) or a stream's ({@link StreamInvokeStage}).
 */
abstract class MethodStage extends ProviderStage {

    final RpcMetrics metrics;
    final Responder respond;

    MethodStage(RpcMetrics metrics, Responder respond) {
        super(null);
        this.metrics = metrics;
        this.respond = respond;
    }

    @Override
    final void serve(ProviderRequest request) {
        ProviderCall call = request.call;
        ServedRequest outer = call != null ? call.enter()
                : request.servesAttachments() ? ContextHolder.enter(request) : null;
        long started = startedNanos(request);
        Object result;
        Status status = Status.OK;
        try {
            result = invoke(request);
        } catch (Throwable t) {
            Throwable cause = Throwables.unwrap(t);
            result = cause;
            status = ProviderFailures.statusOf(cause, ProviderFailures.Where.METHOD, request.method);
        }
        // One clock read for the end, shared by the method timer and adaptive dispatch.
        long done = started != 0L || request.timing != null ? System.nanoTime() : 0L;
        if (call != null) {
            call.exit(outer);
        } else if (request.servesAttachments()) {
            ContextHolder.exit(outer);
        }
        invoked(request, status, result, started, done);
    }

    /** The clock when the method starts, if this stage times it; 0: it does not. */
    long startedNanos(ProviderRequest request) {
        return 0L;
    }

    /**
     * Resolves the method (into {@code request.method}, so that a failure names it) and calls it.
     *
     * @return the method's value
     * @throws Throwable what the method (or its resolution) threw
     */
    abstract Object invoke(ProviderRequest request) throws Throwable;

    /**
     * The method's outcome, out of the call's context: {@code OK} and its value, or the status of its failure and
     * the failure.
     *
     * @param started {@link #startedNanos}
     * @param done    the clock when the method ended, if it was timed or the request is; else 0
     */
    abstract void invoked(ProviderRequest request, Status status, Object result, long started, long done);
}
