package io.jupiter.rpc.pipeline;

/**
 * The service-loaded filter of {@link ConsumerPipelineTest} (listed in {@code META-INF/services}). It takes part only
 * in the proxies built by the thread that {@linkplain #enableFor enabled} it, so other tests of the module never see
 * it in their chains.
 */
public final class MatrixFilter extends Counting {

    /** The one instance {@code ServiceLoader} made. */
    static volatile MatrixFilter loaded;
    private static volatile Thread enabledFor;

    public MatrixFilter() {
        super("filter");
        loaded = this;
    }

    /** Enables the filter for proxies this thread builds until {@link #disable()}. */
    static void enableFor(Thread thread) {
        enabledFor = thread;
    }

    static void disable() {
        enabledFor = null;
    }

    @Override
    public boolean isEnabled() {
        return Thread.currentThread() == enabledFor;
    }
}
