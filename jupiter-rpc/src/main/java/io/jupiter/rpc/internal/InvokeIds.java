package io.jupiter.rpc.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Process-wide 64-bit invoke ids, as in 1.3.1: each thread reserves a block of ids from one atomic counter, so the
 * hot path touches shared memory once every {@value #BLOCK} calls. Ids start at 1 and are unique in the process.
 */
public final class InvokeIds {

    private static final int BLOCK = 128;
    private static final AtomicLong NEXT_BLOCK = new AtomicLong();
    private static final ThreadLocal<long[]> RANGE = ThreadLocal.withInitial(() -> new long[] {0, 0});

    private InvokeIds() {
    }

    /** The next id. */
    public static long next() {
        long[] range = RANGE.get();
        if (range[0] == range[1]) {
            long base = NEXT_BLOCK.getAndAdd(BLOCK);
            range[0] = base;
            range[1] = base + BLOCK;
        }
        return ++range[0];
    }
}
