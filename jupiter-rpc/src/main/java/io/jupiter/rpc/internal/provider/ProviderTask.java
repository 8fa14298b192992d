package io.jupiter.rpc.internal.provider;

import io.jupiter.rpc.internal.WorkerPool;

/** What a provider executor runs: a request that goes on with the chain where it was handed over, or is dropped. */
interface ProviderTask extends WorkerPool.Task {

    /** This task will not run (its executor was stopped): it releases what it holds. */
    void discard();
}
