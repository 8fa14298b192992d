package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.Throwables;
import io.jupiter.rpc.internal.filter.DefaultInvocation;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.transport.Status;
import java.util.concurrent.CompletionStage;

/**
 * The last stage of a call: resolves the method among its overloads, calls it inside the call's context, times it
 * for the metrics, and hands the outcome to the {@link Responder}: the value, or the failure with the status
 * {@link ProviderFailures} gives it. A returned {@code CompletionStage} is answered when it completes.
 */
final class InvokeStage extends ProviderStage {

    private final RpcMetrics metrics;
    private final Responder respond;

    InvokeStage(RpcMetrics metrics, Responder respond) {
        super(null);
        this.metrics = metrics;
        this.respond = respond;
    }

    @Override
    void serve(ProviderRequest request) {
        ServiceEntry service = request.service;
        MessageWrapper message = request.message;
        ProviderCall call = request.call;
        DefaultInvocation outer = call == null ? null : call.enter();
        MethodEntry method = null;
        Object result;
        // One clock read each for the start and the end, shared by the method timer and adaptive dispatch.
        long started = !metrics.enabled() ? 0L : request.timed ? request.startedNanos : System.nanoTime();
        long done;
        try {
            method = service.resolve(message.getMethodName(), message.getArgs());
            request.method = method;
            result = method.invoke(message.getArgs());
            done = doneNanos(request, started);
            metrics.methodDone(method, service.key(), method.method.getName(), started, done);
        } catch (Throwable t) {
            done = doneNanos(request, started);
            if (call != null) {
                call.exit(outer);
            }
            if (method != null) {
                metrics.methodDone(method, service.key(), method.method.getName(), started, done);
            }
            Throwable cause = Throwables.unwrap(t);
            respond.answer(request, ProviderFailures.statusOf(cause, ProviderFailures.Where.METHOD, method), cause,
                    done);
            return;
        }
        if (call != null) {
            call.exit(outer);
        }
        if (method.returnsStage && result != null) {
            ((CompletionStage<?>) result).whenComplete((value, error) -> {
                if (error == null) {
                    respond.answer(request, Status.OK, value, 0L);
                } else {
                    Throwable cause = Throwables.unwrap(error);
                    respond.answer(request, ProviderFailures.statusOf(cause, ProviderFailures.Where.COMPLETION,
                            null), cause, 0L);
                }
            });
            return;
        }
        respond.answer(request, Status.OK, result, done);
    }

    /** The clock when a method returned, if the method timer or adaptive dispatch needs it; else 0. */
    private static long doneNanos(ProviderRequest request, long started) {
        return started != 0L || request.timed ? System.nanoTime() : 0L;
    }
}
