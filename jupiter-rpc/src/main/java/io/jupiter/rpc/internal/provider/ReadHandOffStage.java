package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.AdaptiveDispatch;
import io.jupiter.serialization.Serializer;

/**
 * Which thread reads an admitted call: with no pool, the IO thread that received it. Once a service with methods
 * that may run on the IO threads is registered (declared {@link io.jupiter.rpc.NonBlocking}, or learned:
 * {@link AdaptiveDispatch}), or one with an executor of its own, the IO thread reads and looks up every request of
 * up to 16 KiB whose serializer reads the envelope first, to learn where its method runs; any other request is
 * handed to the pool, which reads it ({@code SERVER_BUSY} when the pool is full). A stream's open is on its stream's
 * own thread already and passes.
 */
final class ReadHandOffStage extends ProviderStage {

    /** {@code null}: requests run on the IO threads (but for services with executors of their own). */
    private final ProviderExecutor pool;
    private final AcceptedSerializers accepted;
    private final HandOver handOver;
    /** Whether the IO thread reads each request to see if its method may run there (some methods never block). */
    private volatile boolean readOnIoThreads;

    ReadHandOffStage(ProviderExecutor pool, AcceptedSerializers accepted, HandOver handOver, ProviderStage next) {
        super(next);
        this.pool = pool;
        this.accepted = accepted;
        this.handOver = handOver;
    }

    /** From now on the IO threads read requests and run the calls of methods that never block. */
    void readOnIoThreads() {
        if (pool != null) {
            this.readOnIoThreads = true;
        }
    }

    @Override
    void serve(ProviderRequest request) {
        if (pool == null || request.handOvers > 0 || request.opensStream()) {
            next.serve(request); // no pool; or on the pool already
        } else if (readOnIoThreads && readsOnIoThread(request)) {
            request.readOnIoThread(true);
            next.serve(request);
        } else {
            handOver.to(pool, request);
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
        Serializer serializer = accepted.get(request.serializerCode());
        return serializer != null && serializer.readsEnvelopeFirst();
    }
}
