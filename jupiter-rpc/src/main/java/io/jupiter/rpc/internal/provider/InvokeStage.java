package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.Throwables;
import io.jupiter.rpc.metrics.RpcMetrics;
import io.jupiter.serialization.wire.MessageWrapper;
import io.jupiter.transport.Status;
import java.util.concurrent.CompletionStage;

/**
 * The last stage of a call: resolves the method among its overloads, calls it inside the call's context, times it
 * for the metrics, and hands the outcome to the {@link Responder}: the value, or the failure with the status
 * {@link ProviderFailures} gives it. A returned {@code CompletionStage} is answered when it completes.
 */
final class InvokeStage extends MethodStage {

    InvokeStage(RpcMetrics metrics, Responder respond) {
        super(metrics, respond);
    }

    @Override
    long startedNanos(ProviderRequest request) {
        // One clock read for the start, shared by the method timer and adaptive dispatch.
        DispatchTiming timing = request.timing;
        return !metrics.enabled() ? 0L : timing != null ? timing.startedNanos : System.nanoTime();
    }

    @Override
    Object invoke(ProviderRequest request) throws Throwable {
        MessageWrapper message = request.message;
        MethodEntry method = request.service.resolve(message.getMethodName(), message.getArgs());
        request.method = method;
        return method.invoke(message.getArgs());
    }

    @Override
    void invoked(ProviderRequest request, Status status, Object result, long started, long done) {
        MethodEntry method = request.method;
        if (method != null) {
            metrics.methodDone(method, request.service.key(), method.method.getName(), started, done);
        }
        if (status == Status.OK && method.returnsStage && result != null) {
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
        respond.answer(request, status, result, done);
    }
}
