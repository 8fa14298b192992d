package io.jupiter.rpc.internal.provider;

/**
 * One stage of the provider's chain: a small class with one job. It does its job for the
 * request on this thread, then hands it to {@link #next}, or refuses it ({@link Responder#refuse}, with a
 * {@link Refusal}) and stops, or hands it to an executor that goes on from here later. A stage knows its next stage
 * only as a {@code ProviderStage}, never the chain that holds it. A new step for calls and stream opens alike is one
 * subclass and one line where the chain is built.
 */
abstract class ProviderStage {

    /** The stage after this one; {@code null} only for the last. */
    final ProviderStage next;

    ProviderStage(ProviderStage next) {
        this.next = next;
    }

    /** Runs this stage, and (through {@link #next}) the ones after it, for {@code request} on this thread. */
    abstract void serve(ProviderRequest request);
}
