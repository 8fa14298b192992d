package io.jupiter.rpc.internal;

import io.jupiter.common.Requires;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many requests a provider lets in at once, learned from how long they take: a gradient limit in the manner of
 * Netflix concurrency-limits' Gradient2 (and Envoy's adaptive concurrency filter). Requests take a permit when they
 * are admitted ({@link #tryAcquire}) and give it back with the time they took ({@link #release}).
 *
 * <p>Every {@value #WINDOW_SAMPLES} releases close a window; its mean time is the short-term latency. The reference
 * latency follows it down at once (half the way a window) and up only slowly (over {@value #LONG_WINDOWS} windows): a
 * low-water mark of the provider's own time, like Vegas's and Envoy's minimum latency, that forgets a cold start's
 * slow first calls and still drifts up when the method itself got slower. The new limit is
 * {@code limit × clamp(1.5 × reference / short, 0.5, 1) + √limit}, smoothed (one fifth of the step), bounded by
 * {@code [min, max]}: while latency stays within 1.5 times the reference the limit grows by about √limit a window; once
 * more requests only queue (latency rises with concurrency), it shrinks by up to half a window. A window in which
 * fewer than half the permits were in use does not move the limit (the load, not the provider, set its latency).
 *
 * <p>Acquiring is a lock-free compare-and-set; a release takes a lock only for its window's few sums.
 */
public final class AdaptiveConcurrencyLimit {

    /** Releases per window. */
    static final int WINDOW_SAMPLES = 10;
    /** Windows over which the reference latency follows a rise. */
    static final int LONG_WINDOWS = 100;
    /** The short-term latency may reach this times the reference before the limit shrinks. */
    private static final double TOLERANCE = 1.5;
    /** The share of each step the limit takes. */
    private static final double SMOOTHING = 0.2;

    /** The server's defaults: where the limit starts, and its bounds. */
    public static final int DEFAULT_INITIAL = 20;
    public static final int DEFAULT_MIN = 4;
    public static final int DEFAULT_MAX = 1000;

    private final int min;
    private final int max;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile int limit;

    // ---- the window, guarded by this ----
    private double estimate;
    private double referenceNanos;
    private int windowCount;
    private long windowSumNanos;
    private int windowMaxInFlight;

    /** A limit with the server's defaults. */
    public AdaptiveConcurrencyLimit() {
        this(DEFAULT_INITIAL, DEFAULT_MIN, DEFAULT_MAX);
    }

    /** A limit starting at {@code initial}, never below {@code min} nor above {@code max}. */
    public AdaptiveConcurrencyLimit(int initial, int min, int max) {
        Requires.argument(min >= 1, "min: " + min + " (expected: >= 1)");
        Requires.argument(max >= min, "max: " + max + " (expected: >= min " + min + ")");
        Requires.argument(initial >= min && initial <= max,
                "initial: " + initial + " (expected: between " + min + " and " + max + ")");
        this.min = min;
        this.max = max;
        this.limit = initial;
        this.estimate = initial;
    }

    /** Takes a permit if fewer than {@link #limit()} are taken; {@code false}: the request is refused. */
    public boolean tryAcquire() {
        while (true) {
            int current = inFlight.get();
            if (current >= limit) {
                return false;
            }
            if (inFlight.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** Gives back a permit taken {@code rttNanos} ago (once per permit). */
    public void release(long rttNanos) {
        int before = inFlight.getAndDecrement();
        sample(Math.max(0L, rttNanos), before);
    }

    private synchronized void sample(long rttNanos, int inFlightBefore) {
        windowSumNanos += rttNanos;
        windowMaxInFlight = Math.max(windowMaxInFlight, inFlightBefore);
        if (++windowCount < WINDOW_SAMPLES) {
            return;
        }
        double shortRtt = Math.max(1.0, (double) windowSumNanos / windowCount);
        int busiest = windowMaxInFlight;
        windowCount = 0;
        windowSumNanos = 0L;
        windowMaxInFlight = 0;
        if (referenceNanos == 0.0 || shortRtt <= referenceNanos) {
            // Faster than the reference: take it at once (a cold start's slow first calls, or load that went).
            referenceNanos = referenceNanos == 0.0 ? shortRtt : (referenceNanos + shortRtt) / 2;
        } else {
            referenceNanos += (shortRtt - referenceNanos) / LONG_WINDOWS;
        }
        if (busiest < estimate / 2) {
            return; // the load, not the provider, set this window's latency
        }
        double gradient = Math.max(0.5, Math.min(1.0, TOLERANCE * referenceNanos / shortRtt));
        double next = estimate * gradient + Math.sqrt(estimate);
        estimate = Math.max(min, Math.min(max, estimate * (1 - SMOOTHING) + next * SMOOTHING));
        limit = (int) estimate;
    }

    /** Requests in flight now. */
    public int inFlight() {
        return inFlight.get();
    }

    /** How many may be in flight now. */
    public int limit() {
        return limit;
    }

    /** The lowest the limit may go. */
    public int min() {
        return min;
    }

    /** The highest the limit may go. */
    public int max() {
        return max;
    }

    @Override
    public String toString() {
        return "adaptive concurrency limit " + limit + " (" + inFlight.get() + " in flight, bounds " + min + ".."
                + max + ")";
    }
}
