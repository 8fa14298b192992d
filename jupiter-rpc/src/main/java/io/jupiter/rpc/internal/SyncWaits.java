package io.jupiter.rpc.internal;

import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * Counts, per thread, the synchronous calls a thread waited for, so the provider can tell a method that calls other
 * services synchronously (and so blocks) from one that does not. Only Jupiter's own threads (IO and pool threads,
 * all {@link FastThreadLocalThread}s) are counted: an application thread pays nothing.
 */
public final class SyncWaits {

    private static final FastThreadLocal<long[]> COUNT = new FastThreadLocal<>() {
        @Override
        protected long[] initialValue() {
            return new long[1];
        }
    };

    private SyncWaits() {
    }

    /** The current thread is about to wait for a synchronous call. */
    public static void record() {
        if (Thread.currentThread() instanceof FastThreadLocalThread) {
            COUNT.get()[0]++;
        }
    }

    /** Synchronous waits of the current thread so far (always 0 on a thread that is not Jupiter's). */
    public static long count() {
        return Thread.currentThread() instanceof FastThreadLocalThread ? COUNT.get()[0] : 0L;
    }
}
