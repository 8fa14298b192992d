package io.jupiter.rpc.internal.consumer;

import io.jupiter.rpc.cluster.ClientThrottling;
import io.jupiter.rpc.exception.RpcException;
import io.jupiter.rpc.exception.ThrottledException;
import io.jupiter.rpc.exception.TimeoutException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A proxy's {@link ClientThrottling} at work: its calls and accepted calls over a sliding window of ten slices, one
 * {@code long} per slice holding the slice's number (24 bits), its calls (20 bits) and its accepted calls (20 bits),
 * updated by compare-and-set; a slice whose number is old is started again by the first call that lands in it. A
 * slice full at 1,048,575 calls stops counting until the next one (the ratio stays an honest sample).
 */
final class AdaptiveThrottle {

    private static final int SLICES = 10;
    private static final long MAX_COUNT = (1L << 20) - 1;
    private static final long TAG_MASK = (1L << 24) - 1;

    private final double k;
    private final long sliceNanos;
    private final String owner;
    private final AtomicLongArray slices = new AtomicLongArray(SLICES);

    /** @param owner what the refusal names (the proxy's service) */
    AdaptiveThrottle(ClientThrottling settings, String owner) {
        this.k = settings.kPercent() / 100.0;
        this.sliceNanos = TimeUnit.MILLISECONDS.toNanos(settings.windowMillis()) / SLICES;
        this.owner = owner;
    }

    /**
     * Counts a new call and decides whether it is refused here: {@code null} if it may go, else the exception to
     * fail it with.
     */
    ThrottledException admit(MethodInfo info) {
        long now = System.nanoTime();
        long calls = 0;
        long accepted = 0;
        long number = now / sliceNanos;
        for (int i = 0; i < SLICES; i++) {
            long slice = slices.get(i);
            long age = (number - (slice >>> 40)) & TAG_MASK;
            if (slice != 0 && age < SLICES) {
                calls += (slice >>> 20) & MAX_COUNT;
                accepted += slice & MAX_COUNT;
            }
        }
        record(now, false);
        double refused = (calls - k * accepted) / (calls + 1);
        if (refused <= 0 || ThreadLocalRandom.current().nextDouble() >= refused) {
            return null;
        }
        return new ThrottledException(info + " throttled locally, not sent: the providers of " + owner
                + " accepted " + accepted + " of the last " + calls + " calls (client-side throttling refuses a share "
                + "of the calls beyond " + k + " x those accepted; ClientThrottling)");
    }

    /** A call this throttle let go ended with {@code error} ({@code null}: a value). */
    void ended(Throwable error) {
        if (accepted(error)) {
            record(System.nanoTime(), true);
        } else if (error instanceof RpcException e && !(e instanceof TimeoutException)
                && !ClusterStage.isRefusal(e)) {
            forget(System.nanoTime()); // never reached a provider: neither a call nor a refusal
        }
    }

    /** Whether a provider accepted the call: any answer but a refusal or a timeout. */
    static boolean accepted(Throwable error) {
        if (!(error instanceof RpcException e)) {
            return true; // a value, or the method's own exception
        }
        return ClusterStage.answered(e);
    }

    private void record(long nowNanos, boolean accept) {
        long number = nowNanos / sliceNanos;
        int index = Math.floorMod(number, SLICES);
        long tag = (number & TAG_MASK) << 40;
        for (;;) {
            long slice = slices.get(index);
            long next;
            if ((slice & (TAG_MASK << 40)) != tag) {
                next = accept ? tag | 1 : tag | (1L << 20);
            } else if (accept) {
                if ((slice & MAX_COUNT) == MAX_COUNT) {
                    return;
                }
                next = slice + 1;
            } else {
                if (((slice >>> 20) & MAX_COUNT) == MAX_COUNT) {
                    return;
                }
                next = slice + (1L << 20);
            }
            if (slices.compareAndSet(index, slice, next)) {
                return;
            }
        }
    }

    /** Takes back one call of the current slice (if it has any). */
    private void forget(long nowNanos) {
        long number = nowNanos / sliceNanos;
        int index = Math.floorMod(number, SLICES);
        long tag = (number & TAG_MASK) << 40;
        for (;;) {
            long slice = slices.get(index);
            if ((slice & (TAG_MASK << 40)) != tag || ((slice >>> 20) & MAX_COUNT) == 0) {
                return;
            }
            if (slices.compareAndSet(index, slice, slice - (1L << 20))) {
                return;
            }
        }
    }
}
