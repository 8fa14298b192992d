package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.AdaptiveDispatch;
import io.jupiter.rpc.internal.SyncWaits;

/**
 * Times a call for its {@link AdaptiveDispatch} when that learns where the method runs. The time is the
 * application's: interceptors' {@code before} and the method, up to the answer (our own writing of the answer is
 * left out). Untimed calls and stream opens pass untouched.
 */
final class DispatchTimerStage extends ProviderStage {

    DispatchTimerStage(ProviderStage next) {
        super(next);
    }

    @Override
    void serve(ProviderRequest request) {
        AdaptiveDispatch dispatch = request.dispatch;
        if (dispatch == null || !dispatch.timed()) {
            next.serve(request);
            return;
        }
        long waitsBefore = SyncWaits.count();
        long started = System.nanoTime();
        DispatchTiming timing = new DispatchTiming(started);
        request.timing = timing;
        try {
            next.serve(request);
        } finally {
            // Answered here (the usual case), or by a stage on another thread, maybe just after this call ended:
            // either way the time of the answer. Not answered yet: the time until now.
            long answering = timing.answeringNanos;
            long took = (answering != 0L ? answering : System.nanoTime()) - started;
            dispatch.ran(took, waitsBefore, request.readOnIoThread());
        }
    }
}
