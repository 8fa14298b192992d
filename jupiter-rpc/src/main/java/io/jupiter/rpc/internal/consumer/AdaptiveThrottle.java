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
    /**
     * The largest share of calls refused: without a cap, callers that call again at once when refused (a closed loop)
     * fill the window with refusals faster than the few calls sent can be accepted, and the proxy would stay shut
     * after its providers recovered; with one call in ten sent, the accepted ones reopen it within a few windows.
     */
    private static final double MAX_REFUSED = 0.9;
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
     * Decides whether a new call is refused here: {@code null} if it may go, else the exception to fail it with (the
     * refusal counts as a call at once; a call that goes counts when it ends, so calls still in flight, such as the
     * first calls of a proxy, never make the next ones look refused).
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
        double refused = Math.min(MAX_REFUSED, (calls - k * accepted) / (calls + 1));
        if (refused <= 0 || ThreadLocalRandom.current().nextDouble() >= refused) {
            return null;
        }
        record(now, false);
        return new ThrottledException(info + " throttled locally, not sent: the providers of " + owner
                + " accepted " + accepted + " of the last " + calls + " calls (client-side throttling refuses a share "
                + "of the calls beyond " + k + " x those accepted; ClientThrottling)");
    }

    /**
     * A call this throttle let go ended with {@code error} ({@code null}: a value): a call, accepted unless refused
     * or timed out; not counted if it never reached a provider (no connection, not sent).
     */
    void ended(Throwable error) {
        if (accepted(error)) {
            record(System.nanoTime(), true);
        } else if (error instanceof TimeoutException
                || (error instanceof RpcException e && ClusterStage.isRefusal(e))) {
            record(System.nanoTime(), false);
        }
    }

    /** Whether a provider accepted the call: any answer but a refusal or a timeout. */
    static boolean accepted(Throwable error) {
        if (!(error instanceof RpcException e)) {
            return true; // a value, or the method's own exception
        }
        return ClusterStage.answered(e);
    }

    /** Counts a call at {@code nowNanos}, accepted or not. */
    private void record(long nowNanos, boolean accept) {
        long number = nowNanos / sliceNanos;
        int index = Math.floorMod(number, SLICES);
        long tag = (number & TAG_MASK) << 40;
        long add = accept ? (1L << 20) | 1 : 1L << 20;
        for (;;) {
            long slice = slices.get(index);
            long next;
            if ((slice & (TAG_MASK << 40)) != tag) {
                next = tag | add;
            } else if (((slice >>> 20) & MAX_COUNT) == MAX_COUNT) {
                return; // full: the slice's ratio stays that of its first calls
            } else {
                next = slice + add;
            }
            if (slices.compareAndSet(index, slice, next)) {
                return;
            }
        }
    }
}
