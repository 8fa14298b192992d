package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.AdaptiveDispatch;
import io.jupiter.rpc.internal.SyncWaits;
import io.jupiter.serialization.Serializer;
import io.jupiter.transport.Status;
import java.util.concurrent.RejectedExecutionException;

/**
 * The one place that decides which thread runs a request's next stage: the IO thread that received it, the
 * provider pool (or the server's executor), or its service's own executor. It decides twice.
 * <ul>
 * <li><b>After admission</b> ({@link #admitted}): with no pool, everything runs on the IO thread. Once a service
 *     with methods that may run on the IO threads is registered (declared {@link io.jupiter.rpc.NonBlocking}, or
 *     learned: {@link AdaptiveDispatch}), or one with an executor of its own, the IO thread reads and looks up every
 *     request of up to 16 KiB whose serializer reads the envelope first; any other request is handed to the pool,
 *     which reads it ({@code SERVER_BUSY} when the pool is full).</li>
 * <li><b>After read and lookup</b>: the call runs on the IO thread if its method does ({@link AdaptiveDispatch}),
 *     on its service's executor if it has one, else on the pool (or here, on the pool thread that read it).</li>
 * </ul>
 * It times the call for adaptive dispatch, which learns from it where the method runs, and ends the request's
 * admission when the thread that ran it is done and did not hand it on.
 */
final class ThreadChooser {

    private final ProviderPipeline pipeline;
    /** {@code null}: requests run on the IO threads (but for services with executors of their own). */
    private final ProviderExecutor pool;
    /** Whether the IO thread reads each request to see if its method may run there (some methods never block). */
    private volatile boolean readOnIoThreads;

    ThreadChooser(ProviderPipeline pipeline, ProviderExecutor pool) {
        this.pipeline = pipeline;
        this.pool = pool;
    }

    /** From now on the IO threads read requests and run the calls of methods that never block. */
    void readOnIoThreads() {
        if (pool != null) {
            this.readOnIoThreads = true;
        }
    }

    /** A request admitted on the IO thread. */
    void admitted(ProviderRequest request) {
        if (pool == null) {
            run(request);
        } else if (readOnIoThreads && readsOnIoThread(request)) {
            request.readOnIoThread = true;
            readHereThenChoose(request);
        } else {
            handOver(request, pool);
        }
    }

    /**
     * Runs the request from where it is, on this thread (a provider executor's, or the IO thread with no pool):
     * read and look up unless that was done, then the call, unless it belongs to its service's executor.
     */
    void run(ProviderRequest request) {
        boolean handedOver = false;
        try {
            if (request.message == null && !pipeline.read.read(request)) {
                return;
            }
            AdaptiveDispatch dispatch = request.dispatch;
            if (!request.onServiceExecutor && request.service.executor() != null && !dispatch.runsOnIoThread()) {
                // Read here (too large for the IO thread, say); the call belongs to its service's executor.
                handedOver = true;
                handOverRead(request);
                return;
            }
            call(request, dispatch, false);
        } finally {
            if (!handedOver) {
                pipeline.admission.ended(request);
            }
        }
    }

    /**
     * On the IO thread: reads the request and finds its service here, then runs the call here if its method never
     * blocks, else hands it, read, on.
     */
    private void readHereThenChoose(ProviderRequest request) {
        boolean handedOver = false;
        try {
            if (!pipeline.read.read(request)) {
                return;
            }
            AdaptiveDispatch dispatch = request.dispatch;
            if (dispatch.runsOnIoThread()) {
                call(request, dispatch, true);
            } else {
                handedOver = true;
                handOverRead(request);
            }
        } finally {
            if (!handedOver) {
                pipeline.admission.ended(request);
            }
        }
    }

    /**
     * The call stages, on this thread; timed for the request's {@link AdaptiveDispatch} when it learns. The time is
     * the application's: interceptors' {@code before} and the method, up to the answer (our own writing of the answer
     * is left out).
     */
    private void call(ProviderRequest request, AdaptiveDispatch dispatch, boolean onIoThread) {
        if (dispatch == null || !dispatch.timed()) {
            pipeline.call.serve(request);
            return;
        }
        long waitsBefore = SyncWaits.count();
        request.timed = true;
        long started = System.nanoTime();
        request.startedNanos = started;
        try {
            pipeline.call.serve(request);
        } finally {
            // Answered here (the usual case), or by a stage on another thread, maybe just after this call ended:
            // either way the time of the answer. Not answered yet: the time until now.
            long answering = request.answeringNanos;
            long took = (answering != 0L ? answering : System.nanoTime()) - started;
            dispatch.ran(took, waitsBefore, onIoThread);
        }
    }

    /**
     * Whether the IO thread reads {@code request} to see where its method runs: only a small body, whose serializer
     * reads the envelope first. A larger body, or one whose arguments come first (Java serialization, Kryo), could
     * keep the IO thread reading for long (a hostile body up to the read limits: many milliseconds), so the pool
     * reads it, and runs its method too.
     */
    private boolean readsOnIoThread(ProviderRequest request) {
        if (request.bodyBytes > AdaptiveDispatch.MAX_BODY_READ_ON_IO_THREAD) {
            return false;
        }
        Serializer serializer = pipeline.read.acceptedSerializer(request.serializerCode);
        return serializer != null && serializer.readsEnvelopeFirst();
    }

    /** Gives a request read and looked up to its service's executor, or else to the server's pool. */
    private void handOverRead(ProviderRequest request) {
        ProviderExecutor own = request.service.executor();
        if (own != null) {
            request.onServiceExecutor = true;
            handOver(request, own);
        } else {
            handOver(request, pool);
        }
    }

    /**
     * Gives the request to {@code executor}, which ends it; when that is full, answers {@code SERVER_BUSY} and ends
     * it.
     */
    private void handOver(ProviderRequest request, ProviderExecutor executor) {
        try {
            executor.execute(request);
        } catch (RejectedExecutionException e) {
            request.bodyDone();
            pipeline.admission.ended(request);
            pipeline.respond.refuse(request, Status.SERVER_BUSY, "provider busy: " + busyDetail(executor), false);
        }
    }

    private String busyDetail(ProviderExecutor executor) {
        if (pipeline.admission.isDraining() || executor.isShutdown()) {
            return "shutting down";
        }
        return executor.busyDetail();
    }
}
