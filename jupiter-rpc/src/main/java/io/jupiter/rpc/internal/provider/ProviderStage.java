package io.jupiter.rpc.internal.provider;

/**
 * One stage of the provider's call: what runs once a request is read and looked up, on the thread the
 * {@link ThreadChooser} picked. A stage does its one job, then hands the request to the next stage, or answers it
 * through the {@link RespondStage} and stops. A new step of serving a call is one subclass, linked into the chain in
 * {@link ProviderPipeline}.
 */
abstract class ProviderStage {

    /** Runs this stage, and the ones after it, for {@code request} on this thread. */
    abstract void serve(ProviderRequest request);
}
