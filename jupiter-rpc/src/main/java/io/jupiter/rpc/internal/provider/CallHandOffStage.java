package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.AdaptiveDispatch;

/**
 * Which thread runs a call once it is read and looked up: the IO thread if it was read there and its method runs
 * there ({@link AdaptiveDispatch}); its service's own executor if it has one (and the method does not run on the IO
 * thread); else the pool, or the pool thread that read it. A stream's open runs on its stream's own thread.
 */
final class CallHandOffStage extends ProviderStage {

    /** {@code null}: requests run on the IO threads (but for services with executors of their own). */
    private final ProviderExecutor pool;
    private final HandOver handOver;

    CallHandOffStage(ProviderExecutor pool, HandOver handOver, ProviderStage next) {
        super(next);
        this.pool = pool;
        this.handOver = handOver;
    }

    @Override
    void serve(ProviderRequest request) {
        if (request.opensStream() || request.onServiceExecutor()) {
            next.serve(request);
            return;
        }
        boolean runsOnIoThread = request.dispatch.runsOnIoThread();
        ProviderExecutor own = request.service.executor();
        if (request.readOnIoThread()) {
            if (runsOnIoThread) {
                next.serve(request);
            } else {
                request.readOnIoThread(false);
                handOver(request, own != null ? own : pool, own != null);
            }
        } else if (own != null && !runsOnIoThread) {
            handOver(request, own, true); // read here (too large for the IO thread, say)
        } else {
            next.serve(request);
        }
    }

    private void handOver(ProviderRequest request, ProviderExecutor executor, boolean serviceExecutor) {
        request.onServiceExecutor(serviceExecutor);
        handOver.to(executor, request);
    }
}
